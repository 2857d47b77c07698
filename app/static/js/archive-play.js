// A past day played again as practice: the page deals in this browser from the day's revealed
// seed (fairness.js: the day's stream, dealt as its epoch deals), so every roll is the dice
// every player had that day. The game lives in this tab only (sessionStorage, one key per date
// and sheet, dropped if it no longer replays on that seed); the server never sees it until the
// end, when the whole transcript is checked here against the published ledger and sent to
// POST /days/<date>/<sheet>/replay, which reviews it and says where it would have ranked.

import { ApiError, postJson, request } from "./api.js";
import {
  NO_HOLD, boardParts, describe, listenToKeys, replay as restartAnimation, showDice,
  showRollButton, showSheet, showStatus,
} from "./board.js";
import {
  REVEAL_TYPE, REVEAL_V2_TYPE, allowedBoxes, checkLedger, epochDealing, extraBonus,
  jokerApplies, replay, rollSlot, score, streamRolls, totals,
} from "./fairness.js";
import { listText, lossTenths, messages, ordinal, plural, t } from "./i18n.js";

const root = document.querySelector("[data-archive-play]");
const parts = boardParts(root);
const board = root.querySelector("[data-board]");
const endCard = root.querySelector("[data-endgame]");
const dealt = JSON.parse(document.getElementById("archive-dealt").textContent);
const { date, ruleset } = dealt;
const turns = Number(root.dataset.turns);
const STORE_KEY = `yacht-daily:archive:${date}:${ruleset}`;
const ROLLS_PER_TURN = 3;
const COMPUTING_PAUSE_MS = 5000;
const COMPUTING_TRIES = 60;

// The page's own sentences (#archive-messages) join the script messages t() and plural() read.
Object.assign(messages(), JSON.parse(document.getElementById("archive-messages").textContent));

let slots = null; // the day's stream cut into slots of five dice, once computed
let transcript = [];
let holds = [...NO_HOLD];
let message = { text: t("loading"), kind: "" };

// ---------- the game, folded from its transcript ----------

function position() {
  const at = { boxes: {}, extra: 0, dice: null, rollsInTurn: 0, rollsTaken: 0 };
  for (const entry of transcript) {
    if (entry.action === "roll") {
      at.dice = entry.dice;
      at.rollsInTurn += 1;
      at.rollsTaken += 1;
    } else {
      at.boxes[entry.category] = entry.points;
      at.extra += entry.bonus;
      at.dice = null;
      at.rollsInTurn = 0;
    }
  }
  at.filled = Object.keys(at.boxes).length;
  at.finished = at.filled === turns;
  return at;
}

function canRoll(at) {
  return slots !== null && !at.finished && at.rollsInTurn < ROLLS_PER_TURN;
}

function canHold(at) {
  return canRoll(at) && at.dice !== null;
}

/** The boxes the dice may go in now and what each would score. */
function choices(at) {
  if (at.dice === null) {
    return null;
  }
  const allowed = allowedBoxes(ruleset, at.dice, at.boxes);
  const previews = Object.fromEntries(allowed.map((box) => [box,
    score(ruleset, box, at.dice, at.boxes, at.rollsInTurn === 1)]));
  return { allowed, previews };
}

// ---------- keeping it in this tab ----------

function save() {
  try {
    sessionStorage.setItem(STORE_KEY, JSON.stringify({ seed: dealt.seed, transcript, holds }));
  } catch {
    // Storage refused: the game goes on, a reload starts it again.
  }
}

function forget() {
  try {
    sessionStorage.removeItem(STORE_KEY);
  } catch {
    // nothing kept
  }
}

/** The game this tab kept for this date and sheet, if it still replays on the day's dice. */
function restore() {
  let kept = null;
  try {
    kept = JSON.parse(sessionStorage.getItem(STORE_KEY) || "null");
  } catch {
    kept = null;
  }
  if (!kept || kept.seed !== dealt.seed || !Array.isArray(kept.transcript)) {
    return;
  }
  const { checks } = replay(kept.transcript, ruleset, slots, dealt.dealing, { explain: false });
  if (checks.some((check) => check.ok === false && check.name !== "game complete")) {
    forget();
    return;
  }
  transcript = kept.transcript;
  holds = Array.isArray(kept.holds) && kept.holds.length === 5 ? kept.holds.map(Boolean)
    : [...NO_HOLD];
}

// ---------- rendering ----------

function guidance(at) {
  if (at.finished) {
    return "";
  }
  if (at.dice === null) {
    return t("turnStart", { turn: at.filled + 1, turns });
  }
  if (jokerApplies(ruleset, at.dice, at.boxes)) {
    const names = allowedBoxes(ruleset, at.dice, at.boxes).map((box) =>
      parts.boxes.find((button) => button.dataset.box === box)?.dataset.name ?? box);
    return t("archiveJoker", { boxes: listText(names) });
  }
  return at.rollsInTurn < ROLLS_PER_TURN ? t("afterRoll") : t("lastRoll");
}

function render() {
  const at = position();
  root.dataset.status = slots === null ? "loading" : at.finished ? "finished" : "playing";
  root.dataset.nextAction = String(transcript.length);
  showDice(parts, at.dice, holds, canHold(at));
  showRollButton(parts, { left: at.finished ? 0 : ROLLS_PER_TURN - at.rollsInTurn,
    usable: canRoll(at), busy: false });
  showSheet(root, parts, { boxes: at.boxes, play: choices(at),
    totals: totals(ruleset, at.boxes, at.extra) });
  for (const element of root.querySelectorAll("[data-turn-short]")) {
    element.textContent = at.finished ? "" : t("turnOf", { turn: at.filled + 1, turns });
  }
  const restricted = at.dice !== null && jokerApplies(ruleset, at.dice, at.boxes);
  showStatus(parts, message.text || guidance(at), message.kind || (restricted ? "restriction" : ""));
  message = { text: "", kind: "" };
}

// ---------- actions ----------

function roll() {
  const at = position();
  if (!canRoll(at)) {
    return;
  }
  const hold = at.dice === null ? [...NO_HOLD] : [...holds];
  const drawn = slots[rollSlot(dealt.dealing, at.filled, at.rollsInTurn, at.rollsTaken)];
  const dice = hold.map((held, p) => (held ? at.dice[p] : drawn[p]));
  transcript = [...transcript, { action: "roll", hold, dice }];
  holds = [...hold]; // the entry keeps its own copy: a later click changes only `holds`
  save();
  parts.dice.forEach((button, p) => {
    if (!hold[p]) {
      restartAnimation(button, "tumbling");
    }
  });
  const left = ROLLS_PER_TURN - at.rollsInTurn - 1;
  const leftText = left === 0 ? t("rollsLeftNone") : plural("rollsLeft", left);
  if (!jokerApplies(ruleset, dice, at.boxes)) {
    message = { text: `${t("rolled", { dice: listText(dice) })} ${leftText}.`, kind: "" };
  }
  render();
}

function fill(box) {
  const at = position();
  const open = choices(at);
  if (slots === null || open === null || !open.allowed.includes(box)) {
    return;
  }
  const points = open.previews[box];
  const bonus = extraBonus(ruleset, at.dice, at.boxes, box);
  transcript = [...transcript, { action: "score", category: box, points, bonus }];
  holds = [...NO_HOLD];
  save();
  const button = parts.boxes.find((candidate) => candidate.dataset.box === box);
  restartAnimation(button, "just-filled");
  message = { text: plural("scored", points, { name: button.dataset.name }), kind: "" };
  render();
  if (position().finished) {
    showEnd({ focus: true });
  } else if (document.activeElement?.closest?.("[data-box]")) {
    parts.rollButton.focus();
  }
}

function toggleHold(index) {
  if (!canHold(position())) {
    return;
  }
  holds[index] = !holds[index];
  save();
  render();
}

// ---------- the end: verified here, ranked by the server ----------

/** Why the game is not the day's published dice (null: it is), from the whole ledger. */
async function verificationProblem() {
  const { entries } = await request("GET", "/ledger");
  const failed = (await checkLedger(entries)).find((check) => check.ok !== true);
  if (failed) {
    return `${failed.name}: ${failed.detail}`;
  }
  const reveal = entries.find((entry) => [REVEAL_TYPE, REVEAL_V2_TYPE].includes(entry.type)
    && entry.date === date);
  const epoch = reveal && entries.find((entry) => entry.epoch === reveal.epoch
    && Object.hasOwn(entry, "anchor"));
  if (!reveal || !epoch || !epoch.rulesets.includes(ruleset)) {
    return `${date} ${ruleset}: no reveal in the ledger`;
  }
  const published = await streamRolls(reveal.seed, date, ruleset);
  const { checks } = replay(transcript, ruleset, published, epochDealing(epoch),
    { explain: false });
  const wrong = checks.find((check) => check.ok !== true);
  return wrong ? `${wrong.name}: ${wrong.detail}` : null;
}

async function showVerdict() {
  const line = endCard.querySelector("[data-verdict]");
  line.textContent = t("archiveVerifying");
  delete line.dataset.ok;
  try {
    const problem = await verificationProblem();
    line.textContent = problem === null
      ? t("archiveVerified", { day: dealt.day, epoch: dealt.epoch })
      : t("archiveNotVerified", { detail: problem });
    line.dataset.ok = String(problem === null);
  } catch (error) {
    line.textContent = t("archiveNotVerified", { detail: describe(error) });
    line.dataset.ok = "false";
  }
}

/** The server's replay, waiting while the strategy tables are being computed. */
async function replayed(onWaiting) {
  const path = `/days/${encodeURIComponent(date)}/${encodeURIComponent(ruleset)}/replay`;
  for (let tries = 1; ; tries += 1) {
    try {
      return await postJson(path, { transcript }, { retries: 2 });
    } catch (error) {
      if (!(error instanceof ApiError && error.code === "tables-not-ready")
          || tries >= COMPUTING_TRIES) {
        throw error;
      }
      onWaiting();
      await new Promise((resolve) => setTimeout(resolve, COMPUTING_PAUSE_MS));
    }
  }
}

async function showRanks() {
  const points = endCard.querySelector('[data-rank="points"]');
  const skill = endCard.querySelector('[data-rank="skill"]');
  const loss = endCard.querySelector("[data-loss]");
  points.textContent = t("archiveRanking");
  skill.textContent = "";
  loss.hidden = true;
  try {
    const answer = await replayed(() => { points.textContent = t("archiveComputing"); });
    points.textContent = t("archivePoints", { rank: ordinal(answer.points.rank),
      players: answer.points.players });
    skill.textContent = t("archiveSkill", { rank: ordinal(answer.skill.rank),
      players: answer.skill.players });
    loss.textContent = plural("reviewLoss", lossTenths(answer.loss), {}, { digits: 1 });
    loss.hidden = false;
    endCard.querySelector("[data-ranks]").dataset.ready = "true";
  } catch (error) {
    points.textContent = t("archiveRankFailed", { message: describe(error) });
  }
}

function showEnd({ focus }) {
  board.hidden = true;
  endCard.hidden = false;
  endCard.querySelector("[data-end-total]").textContent =
    String(totals(ruleset, position().boxes, position().extra).total);
  if (focus) {
    endCard.querySelector("#end-title").focus();
  }
  showVerdict();
  showRanks();
}

function playAgain() {
  forget();
  transcript = [];
  holds = [...NO_HOLD];
  endCard.hidden = true;
  board.hidden = false;
  render();
  parts.rollButton.focus();
}

// ---------- start ----------

async function start() {
  parts.rollButton.addEventListener("click", roll);
  parts.dice.forEach((button, index) => button.addEventListener("click", () => toggleHold(index)));
  for (const button of parts.boxes) {
    button.addEventListener("click", () => fill(button.dataset.box));
  }
  endCard.querySelector("[data-again]").addEventListener("click", playAgain);
  listenToKeys(parts, { ready: () => slots !== null && !position().finished, hold: toggleHold,
    roll });
  render();
  slots = await streamRolls(dealt.seed, date, ruleset);
  restore();
  render();
  if (position().finished) {
    showEnd({ focus: false });
  }
}

start();

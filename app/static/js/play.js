// The play page: five dice to hold, a Roll button, the score sheet with previews, the end card.
// The server holds the game; this page shows its state and sends actions with their number,
// so a double click or a retried request never costs a roll. Opening the page creates
// nothing: the game starts on the first roll. A date no longer (or not yet) playable shows
// that day's results and a way to today's challenge instead of a board.

import { ApiError, getComputed, postJson, request } from "./api.js";
import {
  NO_HOLD, boardParts, describe, listenToKeys, replay, showDice, showRollButton, showSheet,
  showStatus,
} from "./board.js";
import { isIsoDate, localDate, localTime, longDate, msUntilTomorrow, spokenDuration } from "./dates.js";
import { language, listText, lossTenths, plural, t, typeset } from "./i18n.js";
import { setUpSharing } from "./share.js";
import { clearHolds, loadHolds, playerName, saveGame, saveHolds } from "./store.js";

const root = document.querySelector("[data-play]");
const lang = language();
const ruleset = root.dataset.ruleset;
const upperBonus = Number(root.dataset.upperBonus);
const threshold = Number(root.dataset.threshold);
const parts = boardParts(root);
const board = root.querySelector("[data-board]");
const endCard = root.querySelector("[data-endgame]");
const upperBoxes = parts.boxes.slice(0, 6).map((button) => button.dataset.box);
const RETRIES = 3;
const OPEN = "open";
const DAY_BOARD_SIZE = 5;

let game = null;
let challenge = null;
let holds = [...NO_HOLD];
let busy = false;
let message = { text: t("loading"), kind: "" };
let shareTextPromise = null;

function setText(selector, text) {
  for (const element of root.querySelectorAll(selector)) {
    element.textContent = text;
  }
}

function hasDice() {
  return game?.status === "playing" && Array.isArray(game.dice);
}

/** True before the first roll of a day still open: the first roll starts the game. */
function canStart() {
  return game === null && challenge?.status === OPEN;
}

function canRoll() {
  return !busy && (canStart() || (game?.status === "playing" && game.rolls_left > 0));
}

function canHold() {
  return !busy && hasDice() && game.rolls_left > 0;
}

// ---------- rendering ----------

function renderDice() {
  showDice(parts, hasDice() ? game.dice : null, holds, canHold());
}

function renderRoll() {
  const left = canStart() ? 3 : game?.status === "playing" ? game.rolls_left : 0;
  showRollButton(parts, { left, usable: canRoll(), busy });
}

function renderSheet() {
  showSheet(root, parts, { boxes: game.boxes, play: hasDice() ? game : null,
    totals: game.totals });
}

function renderProgress() {
  const turnText = t("turnOf", { turn: Math.min(game.turn, game.turns), turns: game.turns });
  setText("[data-turn-short]", game.status === "playing" ? turnText : "");
  const bar = root.querySelector("[data-bonus-bar]");
  if (!bar) {
    return;
  }
  const upper = game.totals.upper;
  bar.setAttribute("aria-valuenow", String(Math.min(upper, threshold)));
  bar.classList.toggle("done", upper >= threshold);
  bar.firstElementChild.style.width = `${Math.min(100, (100 * upper) / threshold)}%`;
  setText("[data-upper-progress]", String(upper));
  const free = upperBoxes.filter((id) => !Object.hasOwn(game.boxes, id));
  const bestStillPossible = free.reduce((sum, id) => sum + 5 * (upperBoxes.indexOf(id) + 1), 0);
  let bonusNote;
  if (upper >= threshold) {
    bonusNote = t("bonusReached", { bonus: upperBonus });
  } else if (upper + bestStillPossible < threshold) {
    bonusNote = t("bonusOut");
  } else {
    bonusNote = t("bonusMissing", { missing: threshold - upper, bonus: upperBonus });
  }
  setText("[data-bonus-note]", bonusNote);
  const par = upperBoxes
    .filter((id) => Object.hasOwn(game.boxes, id))
    .reduce((sum, id) => sum + 3 * (upperBoxes.indexOf(id) + 1), 0);
  const pace = upper - par;
  const paceNote =
    pace > 0 ? t("paceAhead", { n: pace }) : pace < 0 ? t("paceBehind", { n: -pace }) : t("paceEven");
  setText("[data-pace-note]", free.length < 6 && upper < threshold ? paceNote : "");
}

function guidance() {
  if (game === null) {
    return canStart() ? t("turnStart", { turn: 1, turns: Number(root.dataset.turns) }) : "";
  }
  if (game.status === "abandoned") {
    return t("abandoned");
  }
  if (game.status !== "playing") {
    return "";
  }
  if (!hasDice()) {
    return t("turnStart", { turn: game.turn, turns: game.turns });
  }
  if (game.restriction) {
    return typeset(game.restriction.message);
  }
  return game.rolls_left > 0 ? t("afterRoll") : t("lastRoll");
}

function renderStatus() {
  const kind = message.kind || (hasDice() && game.restriction ? "restriction" : "");
  showStatus(parts, message.text || guidance(), kind);
}

function renderRootState() {
  root.dataset.busy = String(busy);
  if (game) {
    root.dataset.game = game.id;
    root.dataset.status = game.status;
    root.dataset.nextAction = String(game.next_action);
  } else if (challenge) {
    root.dataset.status = canStart() ? "ready" : "unplayable";
    root.dataset.nextAction = "0";
  }
}

function render() {
  renderRootState();
  renderDice();
  renderRoll();
  if (game) {
    renderSheet();
    renderProgress();
  }
  renderStatus();
}

// ---------- end of game ----------

// A v2 game's share text gains its log line (the fingerprint of the checkpoint that covers the
// game, FAIRNESS.md "Gossip") within a minute of the finish: until then it is asked again. (A
// v2 game's receipt may still be null then: only a v1 receipt says no line will come.)
function shareText() {
  shareTextPromise ??= request("GET", `/games/${encodeURIComponent(game.id)}/share`)
    .then(String)
    .then((text) => {
      if (game.receipt?.type !== "yacht-daily/receipt/v1" && !/^log \S+ \d+ /m.test(text)) {
        shareTextPromise = null;
      }
      return text;
    });
  return shareTextPromise;
}

// The headline of the coach's review: the points of expectation given away to perfect play.
function showSkill() {
  const line = endCard.querySelector("[data-skill]");
  const path = `/games/${encodeURIComponent(game.id)}/review`;
  endCard.querySelector("[data-review-link]").href = path;
  const showComputing = () => {
    line.textContent = line.dataset.computing;
    line.hidden = false;
  };
  getComputed(path, showComputing)
    .then((review) => {
      line.textContent = plural("reviewLoss", lossTenths(review.loss), {}, { digits: 1 });
      line.hidden = false;
    })
    .catch(showComputing);
}

function showEnd({ focus }) {
  saveGame(game);
  clearHolds(game.id);
  board.hidden = true;
  root.querySelector("[data-key-hints]").hidden = true;
  root.querySelector("[data-progress]").hidden = true;
  endCard.hidden = false;
  endCard.querySelector("[data-end-total]").textContent = String(game.totals.total);
  for (const element of endCard.querySelectorAll("[data-end]")) {
    element.textContent = String(game.totals[element.dataset.end]);
  }
  endCard.querySelector("[data-results-link]").href =
    `/results/${encodeURIComponent(game.date)}/${encodeURIComponent(game.ruleset)}`;
  endCard.querySelector("[data-verify-link]").href = `/verify?game=${encodeURIComponent(game.id)}`;
  shareText().then((text) => {
    endCard.querySelector("[data-share-preview]").textContent = text;
  }).catch(() => {});
  showRank();
  showTimes();
  showSkill();
  if (focus) {
    endCard.querySelector("#end-title").focus();
  }
}

/** "Your rank so far: 3 of 12 players", from the day's leaderboard. */
async function showRank() {
  const line = endCard.querySelector("[data-end-rank]");
  try {
    const board = await request(
      "GET", `/leaderboard/${encodeURIComponent(game.date)}/${encodeURIComponent(game.ruleset)}?limit=1`,
    );
    if (board.you) {
      line.textContent = plural("rankSoFar", board.players, { rank: board.you.rank });
      line.hidden = false;
    }
  } catch {
    line.hidden = true;
  }
}

/** One line for the reveal (local time and countdown), one for the next challenge. */
function showTimes() {
  const reveal = endCard.querySelector("[data-end-reveal]");
  const next = endCard.querySelector("[data-end-next]");
  const revealAt = challenge?.reveal_at;
  const untilReveal = revealAt ? new Date(revealAt) - Date.now() : 0;
  reveal.textContent = !revealAt
    ? ""
    : untilReveal > 0
      ? t("revealAt", { time: localTime(revealAt, lang), in: spokenDuration(untilReveal, lang) })
      : t("revealedAt", { time: localTime(revealAt, lang) });
  next.textContent = t("nextChallenge", { in: spokenDuration(msUntilTomorrow(), lang) });
}

// ---------- a day that cannot be played ----------

/** The day is closed, revealed or not yet open: its results and a link to today's game. */
async function showDayOver() {
  const card = root.querySelector("[data-day-over]");
  board.hidden = true;
  root.querySelector("[data-key-hints]").hidden = true;
  root.querySelector("[data-progress]").hidden = true;
  card.hidden = false;
  const date = longDate(challenge.date, lang);
  const upcoming = challenge.status === "upcoming";
  card.querySelector("[data-day-over-title]").textContent =
    t(upcoming ? "dayNotYetTitle" : "dayOverTitle", { date });
  card.querySelector("[data-day-over-text]").textContent = upcoming
    ? t("dayNotYet", { time: localTime(challenge.opens_at, lang) })
    : challenge.status === "revealed"
      ? t("dayRevealed")
      : t("dayClosed", { time: localTime(challenge.reveal_at, lang) });
  const results = card.querySelector("[data-day-results-link]");
  results.href = `/results/${encodeURIComponent(challenge.date)}/${encodeURIComponent(ruleset)}`;
  results.hidden = upcoming;
  if (!upcoming) {
    await showDayTop(card.querySelector("[data-day-over-top]"));
  }
}

/** The day's best totals, as a short ranked list. */
async function showDayTop(list) {
  try {
    const day = await request(
      "GET", `/leaderboard/${encodeURIComponent(challenge.date)}/${encodeURIComponent(ruleset)}?limit=${DAY_BOARD_SIZE}`,
    );
    list.replaceChildren(...day.top.map((row) => {
      const item = document.createElement("li");
      item.textContent = plural("boardRow", row.total, { rank: row.rank, name: row.name ?? row.player });
      return item;
    }));
    if (day.top.length === 0) {
      const item = document.createElement("li");
      item.textContent = t("noGamesThatDay");
      list.replaceChildren(item);
    }
  } catch {
    list.replaceChildren();
  }
}

// ---------- actions ----------

function tumble(previousDice, heldBefore) {
  parts.dice.forEach((button, position) => {
    if (!heldBefore[position] || previousDice === null) {
      replay(button, "tumbling");
    }
  });
}

function adopt(state) {
  const finishedNow = game?.status === "playing" && state.status === "finished";
  game = state;
  if (game.status === "finished") {
    render();
    showEnd({ focus: finishedNow });
  }
}

async function act(kind, body) {
  busy = true;
  message = { text: "", kind: "" };
  render();
  const before = game;
  try {
    const data = await postJson(
      `/games/${encodeURIComponent(game.id)}/${kind}`,
      { ...body, roll: game.next_action, token: game.token },
      { retries: RETRIES },
    );
    adopt(data.game);
    return before;
  } catch (error) {
    if (error instanceof ApiError && error.status === 409 && error.body?.game) {
      adopt(error.body.game);
      message = { text: t("resynced"), kind: "" };
    } else {
      message = { text: describe(error), kind: "error" };
    }
    return null;
  } finally {
    busy = false;
    if (game.status === "playing") {
      if (!hasDice()) {
        holds = [...NO_HOLD];
      }
      saveHolds(game.id, game.next_action, holds);
    }
    render();
  }
}

/** Create the day's game (the first roll's first step); true when it is new and untouched. */
async function startGame() {
  busy = true;
  render();
  try {
    game = await openGame();
    return game.status === "playing" && game.next_action === 0;
  } catch (error) {
    message = { text: describe(error), kind: "error" };
    return false;
  } finally {
    busy = false;
    if (game) {
      holds = (hasDice() && loadHolds(game.id, game.next_action)) || [...NO_HOLD];
      adopt(game);
    }
    render();
  }
}

async function roll() {
  if (!canRoll()) {
    return;
  }
  if (game === null && !(await startGame())) {
    return;
  }
  const heldBefore = hasDice() ? [...holds] : [...NO_HOLD];
  const previousDice = game.dice;
  const before = await act("roll", { hold: heldBefore });
  if (before && game.dice) {
    tumble(previousDice, heldBefore);
    const left = game.rolls_left;
    const rolled = t("rolled", { dice: listText(game.dice) });
    const leftText = left === 0 ? t("rollsLeftNone") : plural("rollsLeft", left);
    if (!game.restriction) {
      message = { text: `${rolled} ${leftText}.`, kind: "" };
      renderStatus();
      message = { text: "", kind: "" };
    }
  }
}

async function score(box) {
  if (busy || !hasDice() || !game.allowed.includes(box)) {
    return;
  }
  const keyboardInSheet = document.activeElement?.closest?.("[data-box]");
  const before = await act("score", { category: box });
  if (before) {
    const button = parts.boxes.find((candidate) => candidate.dataset.box === box);
    replay(button, "just-filled");
    if (game.status === "playing") {
      message = { text: plural("scored", game.boxes[box], { name: button.dataset.name }), kind: "" };
      renderStatus();
      message = { text: "", kind: "" };
      if (keyboardInSheet) {
        parts.rollButton.focus();
      }
    }
  }
}

function toggleHold(position) {
  if (!canHold()) {
    return;
  }
  holds[position] = !holds[position];
  saveHolds(game.id, game.next_action, holds);
  renderDice();
}

// ---------- input ----------

function wireInputs() {
  parts.rollButton.addEventListener("click", roll);
  parts.dice.forEach((button, position) => {
    button.addEventListener("click", () => toggleHold(position));
  });
  for (const button of parts.boxes) {
    button.addEventListener("click", () => score(button.dataset.box));
  }
  listenToKeys(parts, { ready: () => Boolean(challenge), hold: toggleHold, roll });
  setUpSharing(endCard, shareText);
}

// ---------- start ----------

function requestedDate() {
  const asked = new URLSearchParams(window.location.search).get("date");
  return isIsoDate(asked) ? asked : localDate();
}

/** Create (or resume) this player's game of the day: the first roll does it. */
async function openGame() {
  const name = playerName();
  const body = { ruleset, date: challenge.date, ...(name ? { name } : {}) };
  return (await postJson("/games", body, { retries: RETRIES })).game;
}

/** The day's challenge on this sheet: its status, times and this player's game id, if any. */
async function readChallenge() {
  const day = await request("GET", `/challenges?date=${encodeURIComponent(requestedDate())}`);
  return day.challenges.find((candidate) => candidate.ruleset === ruleset);
}

async function start() {
  wireInputs();
  try {
    challenge = await readChallenge();
    if (challenge.game) {
      game = (await request("GET", `/games/${encodeURIComponent(challenge.game)}`)).game;
    }
  } catch (error) {
    message = { text: describe(error), kind: "error" };
    render();
    return;
  }
  setText("[data-date-label]", longDate(challenge.date, lang));
  message = { text: "", kind: "" };
  if (game === null) {
    render();
    if (!canStart()) {
      await showDayOver();
    }
    return;
  }
  holds = (hasDice() && loadHolds(game.id, game.next_action)) || [...NO_HOLD];
  message = { text: "", kind: "" };
  render();
  if (game.status === "finished") {
    showEnd({ focus: false });
  }
}

start();

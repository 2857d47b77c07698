// The play page: five dice to hold, a Roll button, the score sheet with previews, the end card
// (the player's streak and games, this game among their own, the day's ranks, the share text,
// the countdown to the next challenge).
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
import {
  formatNumber, language, listText, lossTenths, messages, ordinal, plural, t, typeset,
} from "./i18n.js";
import { hasTurnMarks, setUpSharing } from "./share.js";
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
const MINIMAL = { Prefer: "return=minimal" }; // an action's answer: what it changed
const OPEN = "open";
const DAY_BOARD_SIZE = 5;
const MINUTE_MS = 60_000;
const SKILL_RANK_TRIES = 5; // the skill board may take the coach's next pass to list the game
const SKILL_RANK_PAUSE_MS = 2000;
const SVG_NS = "http://www.w3.org/2000/svg";
// The own-totals chart, in its viewBox's units; a range label needs about LABEL_WIDTH.
const CHART = { width: 320, height: 104, top: 30, bottom: 18, side: 4, gap: 3 };
const LABEL_WIDTH = 46;

// The end card's own sentences join the page's (#end-card-messages, from app/daily/pages.py).
Object.assign(messages(), JSON.parse(document.getElementById("end-card-messages")?.textContent
  ?? "{}"));

let game = null;
let challenge = null;
let holds = [...NO_HOLD];
let busy = false;
let message = { text: t("loading"), kind: "" };
let shareTextPromise = null;
let clockTimer = null;

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

// The share text the end card shows and copies, in the style with a friend's first line and a
// mark per turn. Its turn marks come once the coach's review is ready, and a v2 game's log line
// (the fingerprint of the checkpoint that covers the game, FAIRNESS.md "Gossip") within a
// minute of the finish: while either is still to come, the text is asked again next time. (A
// v2 game's receipt may still be null then: only a v1 receipt says no log line will come.)
function shareText() {
  shareTextPromise ??= request("GET", `/games/${encodeURIComponent(game.id)}/share?style=squares`)
    .then(String)
    .then((text) => {
      const logLineDue = game.receipt?.type !== "yacht-daily/receipt/v1"
        && !/^log \S+ \d+ /m.test(text);
      if (logLineDue || !hasTurnMarks(text)) {
        shareTextPromise = null;
      }
      return text;
    });
  return shareTextPromise;
}

/** Show the share text; `reviewed`: the review is ready, so its turn marks must be in it. */
function showShareText({ reviewed = false } = {}) {
  shareText()
    .then((text) => (reviewed && !hasTurnMarks(text) ? shareText() : text))
    .then((text) => {
      endCard.querySelector("[data-share-preview]").textContent = text;
      endCard.querySelector("[data-turn-legend]").hidden = !hasTurnMarks(text);
    })
    .catch(() => {});
}

// The headline of the coach's review: the points of expectation given away to perfect play;
// once it is known, the share text's turn marks and the day's skill rank are too.
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
      showShareText({ reviewed: true });
      showSkillRank();
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
  showShareText();
  showRank();
  showRecord();
  tickTimes();
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

function pause(ms) {
  return new Promise((resolve) => {
    setTimeout(resolve, ms);
  });
}

/** The day's rank by skill so far ("3rd of 12"), from the skill board, once it lists the game. */
async function showSkillRank() {
  const path = `/leaderboard/${encodeURIComponent(game.date)}/${encodeURIComponent(game.ruleset)}`
    + "?by=skill&limit=1";
  for (let attempt = 0; attempt < SKILL_RANK_TRIES; attempt += 1) {
    let skill;
    try {
      skill = await request("GET", path);
    } catch {
      return;
    }
    if (skill.you) {
      endCard.querySelector('[data-end-stat="skill-rank"]').textContent =
        t("endSkillRank", { rank: ordinal(skill.you.rank), n: skill.players });
      endCard.querySelector("[data-end-skill-rank]").hidden = false;
      return;
    }
    await pause(SKILL_RANK_PAUSE_MS);
  }
}

/**
 * The player's record as the server keeps it (GET /me/history, the "My record" page's figures):
 * the current streak of dates played in a row and the games finished, and this game among the
 * player's own on this sheet. Shown only once the record holds this game.
 */
async function showRecord() {
  let kept;
  try {
    kept = await request("GET", "/me/history");
  } catch {
    return;
  }
  const own = kept.games.filter((row) => row.ruleset === game.ruleset && row.status === "finished");
  if (!own.some((row) => row.game === game.id)) {
    return;
  }
  endCard.querySelector('[data-end-stat="streak"]').textContent =
    plural("days", kept.current_streak);
  endCard.querySelector('[data-end-stat="finished"]').textContent = formatNumber(kept.finished);
  endCard.querySelector("[data-end-stats]").hidden = false;
  const total = game.totals.total;
  const better = own.filter((row) => row.total > total).length;
  endCard.querySelector("[data-own-totals-caption]").textContent = own.length === 1
    ? t("ownFirst")
    : better === 0
      ? plural("ownBest", own.length)
      : plural("ownRank", own.length, { rank: ordinal(better + 1) });
  const sheet = kept.sheets.find((candidate) => candidate.ruleset === game.ruleset);
  const chart = endCard.querySelector("[data-own-chart]");
  chart.hidden = own.length < 2 || !sheet;
  if (!chart.hidden) {
    drawOwnTotals(chart.querySelector("svg"), sheet.distribution, total);
  }
  endCard.querySelector("[data-own-totals]").hidden = false;
}

function svgElement(name, attributes, text = null) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) {
    element.setAttribute(key, String(value));
  }
  if (text !== null) {
    element.textContent = text;
  }
  return element;
}

/** A text centred on `x`, kept inside the chart near its edges. */
function chartText(x, y, text, className) {
  const margin = LABEL_WIDTH / 2;
  const anchor = x < margin ? "start" : x > CHART.width - margin ? "end" : "middle";
  const at = anchor === "start" ? 0 : anchor === "end" ? CHART.width : x;
  return svgElement("text", { x: at, y, "text-anchor": anchor, class: className }, text);
}

/**
 * The player's totals on this sheet as bars (the record's 25-point ranges, from the first one
 * holding a game), the range of `total` marked in colour, in outline and in words ("this game").
 */
function drawOwnTotals(svg, distribution, total) {
  const first = distribution.findIndex((bucket) => bucket.count > 0);
  const buckets = distribution.slice(Math.max(0, first));
  const tallest = Math.max(1, ...buckets.map((bucket) => bucket.count));
  const baseline = CHART.height - CHART.bottom;
  const slot = (CHART.width - 2 * CHART.side) / buckets.length;
  const labelEvery = Math.max(1, Math.ceil(LABEL_WIDTH / slot));
  const parts = [];
  buckets.forEach((bucket, index) => {
    const x = CHART.side + index * slot + CHART.gap / 2;
    const width = Math.max(1, slot - CHART.gap);
    const height = ((baseline - CHART.top) * bucket.count) / tallest;
    const middle = x + width / 2;
    const yours = bucket.from <= total && total <= bucket.to;
    parts.push(svgElement("rect", { class: yours ? "bar-rect you" : "bar-rect", x, width, height,
      y: baseline - height, rx: 3 }));
    if (bucket.count > 0) {
      parts.push(chartText(middle, baseline - height - 4, formatNumber(bucket.count), "count"));
    }
    if (yours) {
      parts.push(chartText(middle, baseline - height - 17, t("thisGame"), "this-game"));
    }
    if (index % labelEvery === 0 || yours) {
      const range = `${formatNumber(bucket.from)}–${formatNumber(bucket.to)}`;
      parts.push(chartText(middle, baseline + 13, range, yours ? "range yours" : "range"));
    }
  });
  parts.push(svgElement("line", { class: "axis", x1: 0, x2: CHART.width, y1: baseline,
    y2: baseline }));
  svg.setAttribute("viewBox", `0 0 ${CHART.width} ${CHART.height}`);
  svg.replaceChildren(...parts);
}

/**
 * A countdown to the minute (rounded up) as the page language abbreviates it, on one line:
 * "5 hr 12 min", "5 h 12 min" (French spaces), "5 ó és 12 p"; a zero part left out.
 */
function countdown(ms) {
  const minutes = Math.ceil(ms / MINUTE_MS);
  const unit = (name, value) => formatNumber(value, { style: "unit", unit: name,
    unitDisplay: "short" });
  const parts = [];
  if (minutes >= 60) {
    parts.push(unit("hour", Math.floor(minutes / 60)));
  }
  if (minutes % 60 > 0 || minutes === 0) {
    parts.push(unit("minute", minutes % 60));
  }
  return new Intl.ListFormat(lang, { type: "unit", style: "narrow" }).format(parts)
    .replaceAll(" ", "\u00a0");
}

/**
 * The countdown to the next challenge (the player's next local midnight: the daily date is the
 * player's own calendar date), or, once a later date than this game's has begun here, a way to
 * it; and the reveal's time and countdown.
 */
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
  const opened = game.date < localDate();
  next.textContent = opened
    ? t("nextChallengeOpen")
    : t("nextChallengeIn", { in: countdown(msUntilTomorrow()) });
  endCard.querySelector("[data-next-link]").hidden = !opened;
}

/** Show the times now, then again at the start of every minute. */
function tickTimes() {
  showTimes();
  clearTimeout(clockTimer);
  clockTimer = setTimeout(tickTimes, MINUTE_MS - (Date.now() % MINUTE_MS) + 20);
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

/**
 * The game after an action's minimal answer (`Prefer: return=minimal`): its fields over those
 * of the game held and its transcript grown by the answer's `last` entry, or, when the answer
 * does not follow the game held (a retried action answered later), the whole game asked again.
 */
async function afterAction(change) {
  const { last, ...fields } = change;
  if (last && change.next_action === game.transcript.length + 1) {
    return { ...game, ...fields, transcript: [...game.transcript, last] };
  }
  return (await request("GET", `/games/${encodeURIComponent(game.id)}`)).game;
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
      { retries: RETRIES, headers: MINIMAL },
    );
    adopt(await afterAction(data.game));
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

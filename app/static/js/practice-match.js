// The match page: a practice game or a game against the computer. The server holds the match;
// this page shows it, sends the player's actions with their number (a double click or a retry
// never costs a roll), and plays the computer's moves back at a pace the player can skip: the
// computer's dice on the board, its boxes filling its column of the shared sheet
// (seat-sheet.js), its column highlighted. The first roll sends the client seed; the end
// (match-end.js) shows the ranks, each seat's review, "Play again" and "Verify the rolls".

import { ApiError, getJson, postJson } from "./api.js";
import {
  NO_HOLD, boardParts, describe, listenToKeys, showDice, showRollButton,
  showSheet, showStatus,
} from "./board.js";
import { formatDecimal, listText, t, typeset } from "./i18n.js";
import { choiceText, playAgain, showEnd, verify } from "./match-end.js";
import { columnAfter, lastScores, moveText, movesFrom } from "./match-moves.js";
import { chosenClientSeed, randomClientSeed } from "./practice-seed.js";
import { noteClientSeed, saveMatch } from "./practice-store.js";
import { markPlaying, seatSheetOf, showSeatColumn } from "./seat-sheet.js";

const root = document.querySelector("[data-match]");
const matchId = root.dataset.match;
const parts = boardParts(root);
const hintButton = root.querySelector("[data-hint]");
const hintText = root.querySelector("[data-hint-text]");
const board = root.querySelector("[data-board]");
const seedEditor = root.querySelector("[data-seed-editor]");
const seedInput = root.querySelector("[data-client-seed]");
const botPanel = root.querySelector("[data-opponents-panel]");
const botLog = root.querySelector("[data-bot-status]");
const skipButton = root.querySelector("[data-skip]");
const endCard = root.querySelector("[data-endgame]");
const seatSheet = seatSheetOf(root);
const boxNames = JSON.parse(document.getElementById("box-names").textContent);
const levelNames = JSON.parse(document.getElementById("level-names").textContent);
const RETRIES = 3;
const PACE_MS = 700;
const CLIENT_SEED = /^[A-Za-z0-9._~-]{1,64}$/;

let match = null;
let holds = [...NO_HOLD];
let busy = false;
let replaying = false;
let skipping = false;
let message = { text: "", kind: "" };
// While the computer's moves play back: each seat's sheet as shown so far, the seat moving.
let shownSeats = null;
let movingSeat = null;

// ---------- reading the state ----------

function mine() {
  return match.seats[match.you ?? 0];
}

function myTurn() {
  return match.you !== null && match.status === "playing" && match.turn === match.you
    && !replaying;
}

function hasDice() {
  return myTurn() && Array.isArray(mine().dice);
}

function canRoll() {
  return !busy && myTurn() && mine().rolls_left > 0;
}

function canHold() {
  return !busy && hasDice() && mine().rolls_left > 0;
}

function seatName(seat) {
  if (seat.kind === "bot") {
    return t("botName", { n: seat.seat, level: levelNames[seat.bot] ?? seat.bot });
  }
  return seat.seat === match.you ? t("youName") : seat.name;
}

// ---------- rendering ----------

function renderDice() {
  showDice(parts, hasDice() ? mine().dice : null, holds, canHold());
}

function renderRoll() {
  showRollButton(parts, { left: myTurn() ? mine().rolls_left : 0, usable: canRoll(), busy });
  hintButton.hidden = !match.hints || replaying;  // the Skip button takes its place
  hintButton.disabled = busy || !hasDice();
}

function renderSheet() {
  const seat = mine();
  showSheet(root, parts, { boxes: seat.boxes, play: hasDice() ? match.play : null,
    totals: seat.totals, locked: busy });
  const turn = Math.min(Object.keys(seat.boxes).length + 1, match.rounds);
  root.querySelector("[data-turn-short]").textContent =
    match.status === "playing" ? t("turnOf", { turn, turns: match.rounds }) : "";
}

/** Every seat's column of the shared sheet (as played back so far) and the seat playing. */
function renderSeats() {
  if (!seatSheet) {
    return;
  }
  match.seats.forEach((seat, index) => showSeatColumn(root, index, shownSeats?.[index] ?? seat));
  const playing = replaying ? movingSeat : match.status === "playing" ? match.turn : null;
  markPlaying(root, playing);
}

function renderFairness() {
  root.querySelector("[data-commitment]").textContent = match.commitment;
  const fixed = mine().client_seed;
  seedEditor.hidden = fixed !== null || match.status !== "playing";
  root.querySelector("[data-seed-fixed]").hidden = fixed === null;
  root.querySelector("[data-client-seed-shown]").textContent = fixed ?? "";
}

function guidance() {
  if (match.status === "expired") {
    return t("matchExpired");
  }
  if (match.status !== "playing") {
    return "";
  }
  if (!myTurn()) {
    return t("computerPlaying");
  }
  if (!hasDice()) {
    return t("turnStart", { turn: Object.keys(mine().boxes).length + 1, turns: match.rounds });
  }
  if (match.play?.restriction) {
    return typeset(match.play.restriction.message);
  }
  return mine().rolls_left > 0 ? t("afterRoll") : t("lastRoll");
}

function renderStatus() {
  showStatus(parts, message.text || guidance(), message.kind);
}

function render() {
  root.dataset.status = match.status;
  root.dataset.nextAction = String(match.next_action);
  root.dataset.busy = String(busy || replaying);
  root.querySelector("[data-kind-label]").textContent =
    match.kind === "practice" ? t("kindPractice") : t("kindComputer");
  renderFairness();
  renderDice();
  renderRoll();
  renderSheet();
  renderSeats();
  renderStatus();
}

// ---------- the computer's moves, at a visible pace ----------

function pause(ms) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    skipButton.onclick = () => {
      skipping = true;
      clearTimeout(timer);
      resolve();
    };
  });
}

/** One move of seat `index` played back: its dice on the board, its box in its column. */
function showBotAction(index, entry, dice, last) {
  const seat = match.seats[index];
  movingSeat = index;
  shownSeats[index] = columnAfter(shownSeats[index], seat, entry, last);
  showDice(parts, dice, entry.action === "roll" ? entry.hold ?? NO_HOLD : NO_HOLD, false);
  renderSeats();
  const text = moveText(entry, seatName(seat), boxNames);
  showStatus(parts, text, "");
  const item = document.createElement("li");
  item.textContent = text;
  botLog.append(item);
}

/** Play back the actions of other seats from action `from` on, one every PACE_MS, their
 * columns starting from `before` (the seats as shown before). */
async function replayOthers(from, before) {
  const queue = movesFrom(match, from);
  if (queue.length === 0) {
    return;
  }
  const lastScore = lastScores(queue);
  shownSeats = match.seats.map((seat, index) => (lastScore.has(index) && before?.[index]
    ? { boxes: before[index].boxes, totals: before[index].totals } : seat));
  botPanel.hidden = false;
  botLog.replaceChildren();
  replaying = true;
  skipping = false;
  skipButton.hidden = false;
  render();
  let dice = null;
  for (const [position, { index, entry }] of queue.entries()) {
    dice = entry.action === "roll" ? entry.dice : dice;
    showBotAction(index, entry, dice, lastScore.get(index) === position);
    if (!skipping) {
      await pause(PACE_MS);
    }
  }
  skipButton.hidden = true;
  replaying = false;
  shownSeats = null;
  movingSeat = null;
}

// ---------- the end ----------

function endView() {
  return { root, match, matchId, seatName, boxNames };
}

// ---------- actions ----------

async function adopt(state, { animateFrom = null } = {}) {
  const endedNow = match?.status === "playing" && state.status !== "playing";
  const before = match?.seats ?? null;
  match = state;
  if (animateFrom !== null) {
    await replayOthers(animateFrom, before);
  }
  if (!hasDice()) {
    holds = [...NO_HOLD];
  }
  render();
  saveMatch(match);
  if (match.status !== "playing") {
    board.hidden = true;
    root.querySelector("[data-key-hints]").hidden = true;
    showEnd(endView(), { focus: endedNow });
  } else if (match.turn !== match.you) {
    setTimeout(advanceBots, PACE_MS);
  }
}

async function act(kind, body) {
  busy = true;
  message = { text: "", kind: "" };
  hintText.hidden = true;
  render();
  const from = match.next_action + 1;
  try {
    const data = await postJson(`/matches/${encodeURIComponent(matchId)}/${kind}`,
      { ...body, roll: match.next_action }, { retries: RETRIES });
    busy = false;
    await adopt(data.match, { animateFrom: from });
    return true;
  } catch (error) {
    busy = false;
    if (error instanceof ApiError && error.status === 409 && error.body?.match) {
      message = { text: t("resynced"), kind: "" };
      await adopt(error.body.match);
    } else {
      message = { text: describe(error), kind: "error" };
      render();
    }
    return false;
  }
}

/** The bots still due (the strategy tables were loading when their turn came): ask again. */
async function advanceBots() {
  if (match.status !== "playing" || match.turn === match.you || busy || replaying) {
    return;
  }
  const from = match.next_action;
  try {
    const data = await postJson(`/matches/${encodeURIComponent(matchId)}/advance`, {});
    await adopt(data.match, { animateFrom: from });
  } catch {
    setTimeout(advanceBots, 5 * PACE_MS);
  }
}

async function roll() {
  if (!canRoll()) {
    return;
  }
  const body = { hold: hasDice() ? [...holds] : null };
  if (mine().client_seed === null) {
    const seed = seedInput.value.trim();
    if (!CLIENT_SEED.test(seed)) {
      message = { text: t("clientSeedInvalid"), kind: "error" };
      renderStatus();
      seedInput.focus();
      return;
    }
    body.client_seed = seed;
  }
  if (await act("roll", body)) {
    if (body.client_seed) {
      noteClientSeed(matchId, body.client_seed);
    }
    message = { text: t("rolled", { dice: listText(mine().dice) }), kind: "" };
    renderStatus();
    message = { text: "", kind: "" };
  }
}

async function score(box) {
  if (busy || !hasDice() || !match.play.allowed.includes(box)) {
    return;
  }
  await act("score", { category: box });
}

async function hint() {
  if (!match.hints || busy || !hasDice()) {
    return;
  }
  try {
    const { hint: found } = await getJson(`/matches/${encodeURIComponent(matchId)}/hint`);
    const best = found.best;
    const runnerUp = found.runner_up;
    hintText.textContent = runnerUp
      ? t("hintBoth", { best: choiceText(best, boxNames),
        bestEv: formatDecimal(best.expected, 1), next: choiceText(runnerUp, boxNames),
        nextEv: formatDecimal(runnerUp.expected, 1) })
      : t("hintOne", { best: choiceText(best, boxNames), bestEv: formatDecimal(best.expected, 1) });
  } catch (error) {
    hintText.textContent = describe(error);
  }
  hintText.hidden = false;
}

function toggleHold(position) {
  if (!canHold()) {
    return;
  }
  holds[position] = !holds[position];
  renderDice();
}

// ---------- input ----------

/** The S key skips the computer's moves while they play back. */
function skipKey() {
  if (replaying) {
    skipButton.click();
  }
  return replaying;
}

function wireInputs() {
  parts.rollButton.addEventListener("click", roll);
  hintButton.addEventListener("click", hint);
  parts.dice.forEach((button, position) => button.addEventListener("click", () => toggleHold(position)));
  for (const button of parts.boxes) {
    button.addEventListener("click", () => score(button.dataset.box));
  }
  root.querySelector("[data-new-seed]").addEventListener("click", () => {
    seedInput.value = randomClientSeed();
  });
  endCard.querySelector("[data-verify]").addEventListener("click", () => {
    verify(endView()).catch((error) => {
      const verdict = endCard.querySelector("[data-verdict]");
      verdict.className = "verdict fail";
      verdict.textContent = describe(error);
    });
  });
  const again = endCard.querySelector("[data-play-again]");
  again.addEventListener("click", () => {
    const error = endCard.querySelector("[data-play-again-error]");
    again.disabled = true;
    error.hidden = true;
    playAgain(match).catch((failure) => {
      again.disabled = false;
      error.textContent = describe(failure);
      error.hidden = false;
    });
  });
  listenToKeys(parts, {
    ready: () => match !== null, hold: toggleHold, roll,
    more: { h: () => { hint(); return true; }, s: skipKey },
  });
}

async function start() {
  wireInputs();
  seedInput.value = chosenClientSeed(matchId) ?? randomClientSeed();
  try {
    match = (await getJson(`/matches/${encodeURIComponent(matchId)}`)).match;
  } catch (error) {
    parts.statusLine.textContent = describe(error);
    return;
  }
  if (match.you === null) {
    board.hidden = true;
  }
  await adopt(match);
}

start();

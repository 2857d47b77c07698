// The match page: a practice game or a game against the computer. The server holds the match;
// this page shows it, sends the player's actions with their number (a double click or a retry
// never costs a roll), and plays the computer's moves back at a pace the player can skip. The
// first roll sends the client seed; at the end "Verify the rolls" recomputes every seat's
// game in this browser (fairness.js) from the revealed seed and the transcripts this device
// saved as the game went.

import { ApiError, getComputed, getJson, postJson } from "./api.js";
import {
  NO_HOLD, boardParts, describe, listenToKeys, showDice, showRollButton,
  showSheet, showStatus,
} from "./board.js";
import { checkLabel, loadDetailTranslator } from "./check-texts.js";
import { verifyMatchInLedger } from "./fairness.js";
import {
  formatDecimal, language, listText, lossTenths, ordinal, plural, t, typeset,
} from "./i18n.js";
import { chosenClientSeed, randomClientSeed } from "./practice-seed.js";
import { noteClientSeed, saveMatch, savedMatch } from "./practice-store.js";

const root = document.querySelector("[data-match]");
const matchId = root.dataset.match;
const parts = boardParts(root);
const hintButton = root.querySelector("[data-hint]");
const hintText = root.querySelector("[data-hint-text]");
const board = root.querySelector("[data-board]");
const seedEditor = root.querySelector("[data-seed-editor]");
const seedInput = root.querySelector("[data-client-seed]");
const botPanel = root.querySelector("[data-opponents-panel]");
const botDice = [...root.querySelectorAll("[data-bot-dice] .die")];
const botStatus = root.querySelector("[data-bot-status]");
const skipButton = root.querySelector("[data-skip]");
const endCard = root.querySelector("[data-endgame]");
const boxNames = JSON.parse(document.getElementById("box-names").textContent);
const levelNames = JSON.parse(document.getElementById("level-names").textContent);
const RETRIES = 3;
const PACE_MS = 700;
const CLIENT_SEED = /^[A-Za-z0-9._~-]{1,64}$/;
const MISTAKES_SHOWN = 3;

let match = null;
let holds = [...NO_HOLD];
let busy = false;
let replaying = false;
let skipping = false;
let message = { text: "", kind: "" };

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
  hintButton.hidden = !match.hints;
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

function renderStandings() {
  const rows = root.querySelector("[data-standings-rows]");
  rows.replaceChildren(...match.seats.map((seat) => {
    const row = document.createElement("tr");
    row.dataset.seat = String(seat.seat);
    row.classList.toggle("current", match.status === "playing" && match.turn === seat.seat);
    for (const text of [seatName(seat), `${Object.keys(seat.boxes).length}/${match.rounds}`,
      String(seat.totals.total)]) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.append(cell);
    }
    return row;
  }));
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
  renderStandings();
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

function describeBotAction(seat, entry) {
  const name = seatName(seat);
  if (entry.action === "roll") {
    return t("botRolled", { name, dice: listText(entry.dice) });
  }
  return plural("botScored", entry.points, { name, box: boxNames[entry.category] ?? entry.category });
}

function showBotAction(seat, entry, dice) {
  botDice.forEach((die, position) => {
    die.dataset.face = String(dice ? dice[position] : 0);
  });
  botStatus.textContent = describeBotAction(seat, entry);
}

/** Play back the actions of other seats from action `from` on, one every PACE_MS. */
async function replayOthers(from) {
  const queue = [];
  const counts = match.seats.map(() => 0);
  match.order.forEach((seatIndex, number) => {
    const entry = match.seats[seatIndex].transcript[counts[seatIndex]];
    counts[seatIndex] += 1;
    if (number >= from && seatIndex !== match.you) {
      queue.push({ seat: match.seats[seatIndex], entry });
    }
  });
  if (queue.length === 0) {
    return;
  }
  botPanel.hidden = false;
  replaying = true;
  skipping = false;
  skipButton.hidden = false;
  render();
  let dice = null;
  for (const { seat, entry } of queue) {
    dice = entry.action === "roll" ? entry.dice : dice;
    showBotAction(seat, entry, dice);
    if (!skipping) {
      await pause(PACE_MS);
    }
  }
  skipButton.hidden = true;
  replaying = false;
}

// ---------- the end ----------

function ordinalOutcome() {
  const rank = match.ranks[match.you];
  const tied = match.ranks.filter((other) => other === rank).length > 1;
  if (match.seats.length === 1) {
    return plural("soloTotal", mine().totals.total);
  }
  if (rank === 1) {
    return tied ? t("youTiedFirst") : t("youWon");
  }
  return t("youRanked", { rank: ordinal(rank), players: match.seats.length });
}

function showEnd({ focus }) {
  saveMatch(match);
  board.hidden = true;
  root.querySelector("[data-key-hints]").hidden = true;
  endCard.hidden = false;
  endCard.querySelector("[data-end-outcome]").textContent =
    match.status === "expired" ? t("matchExpired") : ordinalOutcome();
  const ranks = endCard.querySelector("[data-end-ranks]");
  const order = match.seats.map((seat) => seat.seat)
    .sort((a, b) => (match.ranks?.[a] ?? 0) - (match.ranks?.[b] ?? 0));
  ranks.replaceChildren(...order.map((index) => {
    const seat = match.seats[index];
    const item = document.createElement("li");
    item.textContent = plural("rankRow", seat.totals.total, { name: seatName(seat) });
    return item;
  }));
  endCard.querySelector("[data-verify]").hidden = match.result === null;
  if (match.status === "finished") {
    showReview();
  }
  if (focus) {
    endCard.querySelector("#end-title").focus();
  }
}

async function showReview() {
  const section = endCard.querySelector("[data-review]");
  const showComputing = () => {
    section.querySelector("[data-review-headline]").textContent = t("reviewComputing");
    section.hidden = false;
  };
  try {
    const review = await getComputed(`/matches/${encodeURIComponent(matchId)}/review`,
      showComputing);
    section.querySelector("[data-review-headline]").textContent =
      plural("reviewLoss", lossTenths(review.loss), {}, { digits: 1 });
    const mistakes = review.decisions.filter((decision) => decision.loss > 0.05)
      .sort((a, b) => b.loss - a.loss).slice(0, MISTAKES_SHOWN);
    section.querySelector("[data-review-mistakes]").replaceChildren(...mistakes.map((decision) => {
      const item = document.createElement("li");
      item.textContent = plural("reviewMistake", decision.loss, {
        turn: decision.turn, dice: decision.dice.join(" "), chosen: choiceText(decision.chosen),
        best: choiceText(decision.best),
      }, { digits: 1 });
      return item;
    }));
    section.hidden = false;
  } catch {
    showComputing();
  }
}

function choiceText(choice) {
  if (choice.kind === "box") {
    return boxNames[choice.box] ?? choice.box;
  }
  return t("keepDice", { dice: choice.keep.length ? choice.keep.join(" ") : t("keepNothing") });
}

/** Recompute the game in this browser: the saved transcripts against the published result. */
async function verify() {
  const verdict = endCard.querySelector("[data-verdict]");
  const list = endCard.querySelector("[data-checks]");
  verdict.hidden = false;
  verdict.className = "verdict";
  verdict.textContent = t("checking");
  const saved = savedMatch(matchId);
  const transcripts = saved ? saved.transcripts : match.seats.map((seat) => seat.transcript);
  const { entries } = await getJson("/ledger");
  const answer = { result: match.result, seats: transcripts.map((transcript) => ({ transcript })) };
  const noted = saved ? { commitment: saved.commitment, clientSeed: saved.my_client_seed } : {};
  const checks = await verifyMatchInLedger(entries, answer, noted);
  const translate = await loadDetailTranslator(language());
  list.replaceChildren(...checks.map((check) => {
    const item = document.createElement("li");
    const state = check.ok === true ? "ok" : check.ok === false ? "fail" : "skip";
    item.className = state;
    item.dataset.check = check.name;
    const mark = document.createElement("span");
    mark.className = "mark";
    mark.textContent = state === "ok" ? "✓" : state === "fail" ? "✗" : "–";
    mark.setAttribute("aria-label", t(state === "ok" ? "yesMark" : state === "fail" ? "noMark" : "skipMark"));
    const name = document.createElement("span");
    name.className = "check-name";
    name.textContent = checkLabel(check.name, { boxNames,
      seatName: (index) => seatName(match.seats[index]) });
    const detail = document.createElement("span");
    detail.className = "detail";
    detail.textContent = translate(check.detail);
    item.append(mark, name, detail);
    return item;
  }));
  const failed = checks.filter((check) => check.ok === false).length;
  const passed = checks.length > 0 && checks.every((check) => check.ok === true);
  verdict.className = `verdict ${passed ? "ok" : "fail"}`;
  verdict.textContent = passed ? t("matchAllGood") : plural("failed", failed);
}

// ---------- actions ----------

async function adopt(state, { animateFrom = null } = {}) {
  const endedNow = match?.status === "playing" && state.status !== "playing";
  match = state;
  if (animateFrom !== null) {
    await replayOthers(animateFrom);
  }
  if (!hasDice()) {
    holds = [...NO_HOLD];
  }
  render();
  if (match.status !== "playing") {
    showEnd({ focus: endedNow });
  } else {
    saveMatch(match);
    if (match.turn !== match.you) {
      setTimeout(advanceBots, PACE_MS);
    }
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
      ? t("hintBoth", { best: choiceText(best), bestEv: formatDecimal(best.expected, 1),
        next: choiceText(runnerUp), nextEv: formatDecimal(runnerUp.expected, 1) })
      : t("hintOne", { best: choiceText(best), bestEv: formatDecimal(best.expected, 1) });
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
    verify().catch((error) => {
      const verdict = endCard.querySelector("[data-verdict]");
      verdict.className = "verdict fail";
      verdict.textContent = describe(error);
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
  botPanel.hidden = match.seats.length === 1;
  await adopt(match);
}

start();

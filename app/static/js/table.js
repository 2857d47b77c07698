// A table's page: the lobby (join, start), then the daily game's board and one shared score
// sheet with a column per seat, live through the table's event stream (Server-Sent Events;
// the browser resumes after its last event by itself), and the end (table-end.js).
//
// The match is followed in a MatchLog (table-log.js): each action applied in the slot of its
// number. The stream's snapshot (or a GET) loads the table whole: on the first load, at the
// start (its event names the match only), after a gap in the action numbers, or when a stream
// is opened again after a refusal. The other seats' actions are shown one at a time, a bot's
// PACE_MS apart ("Skip" or S shows them at once); the sheets' totals are the events' own,
// kept per action number so that what is shown and its totals agree.
//
// A duplicate table (every seat the same dice each turn) shows a seat's turn of a round to no
// one else until every seat has played that round: its events carry the complete rounds
// only, and this device's own turn shows from its actions' answers (their `yours`). While
// another seat plays, the board says so instead of showing dice; when the round closes, its
// turns appear in the sheet at once (the bots' played back at a pace).

import { getJson, postJson } from "./api.js";
import {
  NO_HOLD, boardParts, describe, listenToKeys, showDice, showRollButton, showStatus,
} from "./board.js";
import { levelName, listText, plural, t } from "./i18n.js";
import { playAgain, randomSeed, showEnd, verifyTable } from "./table-end.js";
import { MatchLog } from "./table-log.js";
import { addSeatColumns, showSeatSheet } from "./table-sheet.js";

const root = document.querySelector("[data-table]");
const tableId = root.dataset.table;
const watching = root.dataset.watching === "true";
const boxNames = JSON.parse(document.getElementById("table-texts").textContent).boxes;
const $ = (selector) => root.querySelector(selector);
const parts = boardParts($("[data-board]"));
const sheetRoot = $("[data-seat-sheet]");
const skipButton = parts.skipButton ?? $("[data-skip]");
const PACE_MS = 600;
// The rolls of a turn, as fairness.js's ROLLS_PER_TURN: the verifier (fairness.js, the page's
// largest script) loads only when "Verify the rolls" is clicked.
const ROLLS_PER_TURN = 3;
const ANSWER_WAIT_MS = 1500; // an action's events come with its answer: a GET only past this
// A stream the server refused (past its caps on live streams: 429 or 503) is asked for again
// after a pause that doubles each time, up to a minute, at a random point of its second half
// so that the pages refused together do not come back together.
const STREAM_PAUSE_FIRST_SECONDS = 5;
const STREAM_PAUSE_MAX_SECONDS = 60;

let table = null; // the table as last read whole (its match without the live parts)
let log = new MatchLog();
let shown = 0; // actions shown (the others' are played back at a pace)
let live = null; // {turn, round, status} as the latest event says
let play = null; // the boxes this device may fill: {version, allowed, previews, restriction}
let ended = null; // {ranks, winners, result, server_seed} once over
let nextAction = 0; // the match's next action number (a duplicate table's log holds fewer)
let holds = [...NO_HOLD];
let deadline = null; // performance.now() when the timed turn ends
let acting = false;
let busy = false;
let pending = false;
let skipping = false;
let wake = null; // ends the pause between two played-back actions
let pacing = false;
let streamPauses = 0; // refusals in a row of this page's event stream

function status(text) {
  $("[data-table-status]").textContent = text;
}

// A bot's seat by its level in the page language ("Computer 1 (Easy)"); a person's by the
// name they gave.
function seatName(index) {
  const seat = table.seats[index];
  if (seat.kind === "bot") return t("botName", { n: index, level: levelName(seat.bot) });
  return seat.name || t("tableOpenSeat");
}

function seatsAfter(upto) {
  return log.seatsAfter(table.seats.length, upto);
}

function sheetsFor(upto) {
  const sheets = log.sheetsFor(upto);
  return table.seats.map((_, seat) => sheets[seat] ?? { total: 0 });
}

function playing() {
  return live !== null && live.status === "playing";
}

function replaying() {
  return shown < log.known;
}

function myTurn() {
  return !watching && playing() && !replaying() && table.you.includes(live.turn);
}

function duplicate() {
  return Boolean(table?.duplicate);
}

// The number this device's next action sends: the log's end, past it at a duplicate table.
function actionNumber() {
  return duplicate() ? Math.max(nextAction, log.known) : log.known;
}

// Another seat is playing its turn of a duplicate table's round: this page may not see it yet.
function withheldTurn() {
  return duplicate() && playing() && !replaying() && live.turn !== null
    && (watching || !table.you.includes(live.turn));
}

// A duplicate table's answer: this device's actions past the shared log and the number next.
function takeOwn(view) {
  if (!duplicate() || !view.match) return;
  nextAction = Math.max(nextAction, view.match.next_action);
  log.setOwn(view.yours ?? [], view.match.seats.map((seat) => seat.totals));
}

// ---------- loading the table whole ----------

function setTable(next) {
  const match = next.match;
  const held = table?.match;
  if (held && match && match.id === held.id && match.next_action < actionNumber()) return;
  table = next;
  if (!match) {
    render();
    return;
  }
  log.load(match, next.shared ?? match.next_action);
  nextAction = match.next_action;
  takeOwn(next);
  shown = log.known;
  live = { turn: match.turn, round: match.round, status: match.status };
  play = match.play ? { version: match.next_action, ...match.play } : null;
  ended = match.status === "playing" ? null
    : { ranks: match.ranks, result: match.result, server_seed: match.server_seed };
  setDeadline(next.seconds_left);
  render();
}

async function refresh() {
  if (busy) {
    pending = true;
    return;
  }
  busy = true;
  try {
    setTable((await getJson(`/tables/${tableId}`, { retries: 2 })).table);
  } catch (error) {
    status(t("errorServer", { message: describe(error) }));
  } finally {
    busy = false;
  }
  if (pending) {
    pending = false;
    refresh();
  }
}

function setDeadline(secondsLeft) {
  deadline = secondsLeft === null || secondsLeft === undefined ? null
    : performance.now() + secondsLeft * 1000;
}

// ---------- applying the events ----------

// An `actions` event: each action into its slot, the sheets after it, the turn and the clock.
// False when a gap comes before it (the caller reads the table whole).
function applyActions(data) {
  if (!table?.match || !log.apply(data)) return false;
  if (data.next_action !== undefined) nextAction = Math.max(nextAction, data.next_action);
  if (live.turn !== data.turn) holds = [...NO_HOLD];
  live = { turn: data.turn, round: data.round, status: data.status };
  setDeadline(data.seconds_left);
  return true;
}

function pause(ms) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
}

// Show the actions held but not shown yet, one at a time: a bot's PACE_MS apart, a person's
// (already at a person's pace) at once.
async function playBack() {
  if (pacing) return;
  pacing = true;
  while (shown < log.known) {
    const bot = table.seats[log.at(shown).seat]?.kind === "bot";
    shown += 1;
    skipButton.hidden = skipping || !bot;
    render();
    if (bot && !skipping) await pause(paceMs());
  }
  skipping = false;
  skipButton.hidden = true;
  pacing = false;
  render();
}

// A bot's move shows PACE_MS long, less when this device's turn is being timed meanwhile:
// the moves left take at most a quarter of the time left.
function paceMs() {
  if (deadline === null || !table.you.includes(live.turn) || watching) return PACE_MS;
  const left = Math.max(0, deadline - performance.now());
  return Math.min(PACE_MS, left / 4 / Math.max(1, log.known - shown));
}

function skip() {
  if (!pacing) return false;
  skipping = true;
  wake?.();
  return true;
}

// ---------- showing it ----------

function renderLobby() {
  const waiting = table.status === "waiting";
  $("[data-lobby]").hidden = !waiting;
  if (!waiting) return;
  $("[data-code]").textContent = table.code;
  $("[data-join-link]").href = table.join_url;
  $("[data-watch-link]").href = table.watch_url;
  const form = $("[data-join-form]");
  form.hidden = watching || table.you.length > 0;
  if (!form.hidden && !$("[data-join-seed]").value) $("[data-join-seed]").value = randomSeed();
  const full = table.seats.every((seat) => seat.taken);
  $("[data-start]").hidden = !table.creator || !full;
  const list = $("[data-seats]");
  list.replaceChildren(...table.seats.map((seat) => {
    const item = document.createElement("li");
    item.dataset.seat = seat.seat;
    item.textContent = table.you.includes(seat.seat)
      ? `${seatName(seat.seat)} · ${t("tableYou")}` : seatName(seat.seat);
    return item;
  }));
  status(full ? t("tableReady") : t("tableWaiting"));
}

// The seat whose dice the board shows: the one being played back, else the one playing.
function boardSeat() {
  if (replaying()) return log.at(shown)?.seat ?? live.turn;
  if (!playing()) return log.at(log.known - 1)?.seat ?? null;
  return live.turn;
}

function describeAction({ seat, entry }) {
  const name = seatName(seat);
  if (entry.action === "roll") return t("botRolled", { name, dice: listText(entry.dice) });
  return plural("botScored", entry.points, { name, box: boxNames[entry.category] ?? entry.category });
}

function guidance(seat, state) {
  if (!playing() && !replaying()) return t("tableEnded");
  if (withheldTurn()) return ""; // the board's caption says who plays, and why no dice
  const last = log.at(shown - 1);
  if (last && (replaying() || (!myTurn() && last.seat === seat))) return describeAction(last);
  if (!myTurn()) return t(watching ? "tableWatching" : "tableTheirTurn", { name: seatName(seat) });
  if (!state.dice) return t("turnStart", { turn: live.round, turns: table.match.rounds });
  if (play?.restriction && play.version === actionNumber()) return play.restriction.message;
  return state.rolls < ROLLS_PER_TURN ? t("afterRoll") : t("lastRoll");
}

function renderPlay() {
  const started = Boolean(table.match);
  $("[data-play]").hidden = !started;
  if (!started) return;
  $("[data-board-area]").hidden = !playing() && !replaying();
  const seats = seatsAfter(shown);
  const sheets = sheetsFor(shown);
  const seat = boardSeat();
  const mine = myTurn();
  const state = seat === null ? null : seats[seat];
  // The last action shown was a box: its dice stay in view until the next roll.
  const last = log.at(shown - 1);
  const lastDice = last && last.seat === seat && last.entry.action === "score"
    ? seatsAfter(shown - 1)[seat].dice : null;
  const hidden = withheldTurn();
  const dice = hidden ? null : state?.dice ?? lastDice;
  showDice(parts, dice, mine ? holds : (state?.hold ?? NO_HOLD),
    mine && Boolean(state.dice) && state.rolls < ROLLS_PER_TURN && !acting);
  $("[data-board-area]").classList.toggle("withheld", hidden);
  const left = state ? ROLLS_PER_TURN - state.rolls : 0;
  showRollButton(parts, { left: mine ? left : 0, usable: mine && left > 0 && !acting,
    busy: acting });
  parts.rollButton.hidden = !mine;
  $("[data-board-area]").dataset.seat = seat ?? "";
  $("[data-board-area]").classList.toggle("theirs", !mine);
  let label = "";
  if (hidden) label = t("tableDuplicatePlaying", { name: seatName(seat) });
  else if (seat !== null && mine) {
    label = table.you.length > 1 ? t("tablePassTo", { name: seatName(seat) }) : t("tableYourDice");
  } else if (seat !== null) label = t("tableDiceOf", { name: seatName(seat) });
  $("[data-board-seat]").textContent = label;
  showStatus(parts, seat === null ? "" : guidance(seat, state), "");
  addSeatColumns(sheetRoot, table.seats.map((seat, index) => ({ name: seatName(index),
    short: seat.kind === "bot" ? levelName(seat.bot) : null })));
  showSeatSheet(sheetRoot, {
    seats: seats.map((played, index) => ({ boxes: played.boxes, totals: sheets[index] })),
    current: playing() || replaying() ? seat : null,
    mine: watching ? [] : table.you,
    offer: mine && state?.dice ? seat : null,
    play: mine && play && play.version === actionNumber() ? play : null,
    locked: acting,
    boxNames,
  });
}

function renderStatus() {
  if (!table.match || table.status === "waiting") return;
  if (!playing() && !replaying()) status(t("tableEnded"));
  else if (myTurn()) {
    status(table.you.length > 1 ? t("tablePassTo", { name: seatName(live.turn) })
      : t("tableYourTurn"));
  } else {
    status(t(watching ? "tableWatching" : "tableTheirTurn", { name: seatName(boardSeat()) }));
  }
}

function renderEnd() {
  if (!ended || replaying()) {
    $("[data-end]").hidden = true;
    return;
  }
  const sheets = sheetsFor(log.known);
  showEnd(root, { match: { id: table.match.id, ...ended }, totals: sheets.map((s) => s.total),
    seatName, seated: !watching && table.you.length > 0 });
}

function renderClock() {
  const clock = $("[data-clock]");
  clock.hidden = deadline === null || !playing();
  if (clock.hidden) return;
  const left = Math.max(0, Math.ceil((deadline - performance.now()) / 1000));
  const face = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  if ($("[data-clock-face]").textContent !== face) {
    $("[data-clock-face]").textContent = face;
    $("[data-clock-text]").textContent = t("tableClock", { n: left });
  }
  clock.classList.toggle("mine", myTurn());
  clock.classList.toggle("low", left <= 10);
}

function render() {
  if (!table) return;
  root.dataset.shown = String(shown);
  root.dataset.turn = live?.turn ?? "";
  $("[data-duplicate]").hidden = !duplicate();
  renderLobby();
  renderPlay();
  renderStatus();
  renderEnd();
  renderClock();
}

// ---------- acting ----------

async function act(action, body) {
  if (acting || !myTurn()) return;
  acting = true;
  render();
  const sent = actionNumber();
  try {
    const answer = await postJson(`/tables/${tableId}/${action}`, { ...body, roll: sent },
      { retries: 2 });
    const match = answer.table.match;
    if (action === "score") holds = [...NO_HOLD];
    play = match.play ? { version: match.next_action, ...match.play } : null;
    takeOwn(answer.table); // a duplicate table's own turn shows from the answer
    const awaited = answer.table.shared ?? match.next_action; // what its events bring
    if (awaited > log.known) {
      setTimeout(() => {
        if (log.known < awaited) refresh(); // its events did not come
      }, ANSWER_WAIT_MS);
    }
  } catch (error) {
    status(describe(error));
    refresh();
  } finally {
    acting = false;
    render();
  }
}

function roll() {
  if (!myTurn()) return;
  const state = seatsAfter(log.known)[live.turn];
  if (state.rolls >= ROLLS_PER_TURN) return;
  act("roll", { hold: state.dice ? holds : null });
}

function hold(position) {
  if (!myTurn() || acting) return;
  const state = seatsAfter(log.known)[live.turn];
  if (!state.dice || state.rolls >= ROLLS_PER_TURN) return;
  holds[position] = !holds[position];
  render();
}

// ---------- the stream ----------

function listen() {
  const source = new EventSource(`/api/v1/tables/${tableId}/events`);
  source.addEventListener("snapshot", (event) => setTable(JSON.parse(event.data)));
  source.addEventListener("joined", (event) => {
    if (!table) return refresh();
    table.seats = JSON.parse(event.data).seats;
    render();
  });
  source.addEventListener("started", (event) => {
    if (table?.match?.id !== JSON.parse(event.data).match) refresh();
  });
  source.addEventListener("actions", (event) => {
    const data = JSON.parse(event.data);
    const turn = live?.turn; // a duplicate table's clock move shows no action of that seat
    if (!applyActions(data)) return refresh();
    render();
    playBack();
    const timed = duplicate() ? turn : data.actions[0]?.seat;
    if (data.by === "clock" && timed !== undefined && timed !== null) {
      status(t("tableClockPlayed", { name: seatName(timed) }));
      // The clock's move on this device's seat is its own: only the table's answer shows it.
      if (duplicate() && !watching && table.you.includes(timed)) refresh();
    }
  });
  source.addEventListener("ended", (event) => {
    source.close();
    if (!table?.match) return refresh();
    const data = JSON.parse(event.data);
    ended = { ranks: data.ranks, winners: data.winners, result: data.result,
      server_seed: data.server_seed };
    live = { ...live, status: data.status, turn: null };
    table.status = data.status;
    deadline = null;
    render();
  });
  source.addEventListener("open", () => {
    streamPauses = 0;
  });
  source.addEventListener("error", () => {
    if (source.readyState !== EventSource.CLOSED) {
      status(t("tableReconnecting")); // the browser reconnects by itself
      return;
    }
    pauseListening(); // refused (or not a stream): the browser gave up on it
  });
}

// Say the live updates are paused and for how long, then ask for the table and its stream
// again (the new stream's snapshot brings what happened meanwhile).
function pauseListening() {
  const longest = Math.min(STREAM_PAUSE_MAX_SECONDS,
    STREAM_PAUSE_FIRST_SECONDS * 2 ** streamPauses);
  const seconds = Math.ceil(longest * (0.5 + Math.random() / 2));
  streamPauses += 1;
  status(plural("streamPaused", seconds));
  setTimeout(listen, seconds * 1000);
}

// The match as the verifier reads it: the result and every seat's transcript as followed.
function followedMatch() {
  return { ...table.match, ...ended, seats: seatsAfter(log.known).map((seat, index) => ({
    ...table.match.seats[index], seat: index, transcript: seat.transcript })) };
}

parts.dice.forEach((button, position) => button.addEventListener("click", () => hold(position)));
parts.rollButton.addEventListener("click", roll);
sheetRoot.addEventListener("click", (event) => {
  const button = event.target.closest("[data-pick]");
  if (button && !button.disabled) act("score", { category: button.dataset.pick });
});
listenToKeys(parts, { ready: () => table !== null, hold, roll, more: { s: skip } });
skipButton.addEventListener("click", skip);
$("[data-join-form]").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    const answer = await postJson(`/tables/${tableId}/join`, {
      name: $("[data-join-name]").value, client_seed: $("[data-join-seed]").value });
    setTable(answer.table);
  } catch (error) {
    status(describe(error));
  }
});
$("[data-start]").addEventListener("click", async () => {
  try {
    setTable((await postJson(`/tables/${tableId}/start`, {})).table);
  } catch (error) {
    status(describe(error));
  }
});
$("[data-again]").addEventListener("click", () => playAgain(root, tableId, status));
$("[data-verify]").addEventListener("click", async () => {
  status(t("tableVerifying"));
  if (!ended?.result || log.known < (table.match.next_action ?? 0)) await refresh();
  await verifyTable(root, followedMatch(), seatName);
  status(t("tableEnded"));
});
setInterval(renderClock, 250);
listen();

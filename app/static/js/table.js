// A table's page: the lobby (join, start), every seat live through the table's event stream
// (Server-Sent Events; the browser resumes after its last event by itself), the caller's
// turn, the server's clock, and at the end the ranks, the coach and "Verify the rolls".
// The page applies each event to the table it holds; it asks for the whole table only when an
// event cannot be applied: a gap in the actions, a start (the event has no match), the end
// (the result, the seeds and the transcripts), or the caller's own turn with dice showing
// whose boxes only the server offers.

import { errorText, getComputed, getJson, postJson } from "./api.js";
import { ROLLS_PER_TURN } from "./fairness.js";
import { loadDetailTranslator } from "./check-texts.js";
import { language, levelName, listText, lossTenths, ordinal, plural, t } from "./i18n.js";

const root = document.querySelector("[data-table]");
const tableId = root.dataset.table;
const watching = root.dataset.watching === "true";
const boxNames = JSON.parse(document.getElementById("table-texts").textContent).boxes;
const $ = (selector) => root.querySelector(selector);
const dice = [...root.querySelectorAll("[data-die]")];
// A stream the server refused (past its caps on live streams: 429 or 503) is asked for again
// after a pause that doubles each time, up to a minute, at a random point of its second half
// so that the pages refused together do not come back together.
const STREAM_PAUSE_FIRST_SECONDS = 5;
const STREAM_PAUSE_MAX_SECONDS = 60;

let table = null;
let hold = [false, false, false, false, false];
let deadline = null; // performance.now() when the timed turn ends
let busy = false;
let pending = false;
let written = 0; // answers of this page's own POSTs: a GET sent before one is stale
let acting = 0; // this page's actions whose answer has not come yet
let verified = null;
let streamPauses = 0; // refusals in a row of this page's event stream

function randomSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function status(text) {
  $("[data-table-status]").textContent = text;
}

// A bot's seat by its level in the page language ("Computer 1 (Easy)"), as the match page
// names it; a person's by the name they gave.
function seatName(index) {
  const seat = table.seats[index];
  if (seat.kind === "bot") return t("botName", { n: index, level: levelName(seat.bot) });
  return seat.name || t("tableOpenSeat");
}

function myTurn() {
  const match = table.match;
  return !watching && match && match.status === "playing" && table.you.includes(match.turn);
}

function setWritten(next) {
  written += 1;
  setTable(next);
}

// Whether `next` is behind the table held: the events brought later actions of its match
// while it was on its way.
function behind(next) {
  const held = table?.match;
  return Boolean(held && next.match && held.id === next.match.id
    && next.match.next_action < held.next_action);
}

function setTable(next) {
  if (behind(next)) return;
  if (next.match && table?.match && table.match.turn !== next.match.turn) {
    hold = [false, false, false, false, false];
  }
  table = next;
  setDeadline(next.seconds_left);
  render();
}

function setDeadline(secondsLeft) {
  deadline = secondsLeft === null ? null : performance.now() + secondsLeft * 1000;
}

// One transcript entry on its seat, as the engine plays it: a roll shows its dice and uses a
// roll, a box takes its points and hands the seat's next turn its three rolls (none after its
// last of `rounds` boxes). False for an entry this page does not know.
function applyEntry(played, entry, rounds) {
  if (entry.action === "roll") {
    played.dice = entry.dice;
    played.rolls_left -= 1;
  } else if (entry.action === "score") {
    played.boxes[entry.category] = entry.points;
    played.dice = null;
    played.finished = Object.keys(played.boxes).length === rounds;
    played.rolls_left = played.finished ? 0 : ROLLS_PER_TURN;
  } else {
    return false;
  }
  return true;
}

// An `actions` event of the match being played: the actions this page has not seen yet (on
// their seats, and their transcripts and the play order where held), the totals, the turn and
// the clock. False when it cannot be applied (no match held, a gap before
// it, an unknown entry): the caller then asks for the whole table.
function applyActions(data) {
  const match = table?.match;
  if (!match || match.status !== "playing" || data.from > match.next_action) return false;
  if (data.to <= match.next_action) return true; // seen already (a snapshot or our answer)
  const seats = structuredClone(match.seats);
  const order = match.order ? [...match.order] : undefined; // absent from an action's answer
  for (const { seat, entry } of data.actions.slice(match.next_action - data.from)) {
    if (!seats[seat] || !applyEntry(seats[seat], entry, match.rounds)) return false;
    seats[seat].transcript?.push(entry);
    order?.push(seat);
  }
  seats.forEach((played, index) => {
    played.totals = { total: data.totals[index] }; // the event's; the page shows no other
  });
  if (match.turn !== data.turn) hold = [false, false, false, false, false];
  table.match = { ...match, seats, order, turn: data.turn, next_action: data.to, play: null,
    you: table.you.includes(data.turn) ? data.turn : (table.you[0] ?? null) };
  setDeadline(data.seconds_left);
  return !(myTurn() && seats[data.turn].dice && acting === 0); // our roll's answer brings them
}

async function refresh() {
  if (busy) {
    pending = true;
    return;
  }
  busy = true;
  const asked = written;
  try {
    const answer = await getJson(`/tables/${tableId}`, { retries: 2 });
    if (asked === written) {
      setTable(answer.table);
    } else {
      pending = true; // sent before our own write landed (perhaps without its cookie yet)
    }
  } catch (error) {
    status(t("errorServer", { message: errorText(error) }));
  } finally {
    busy = false;
  }
  if (pending) {
    pending = false;
    refresh();
  }
}

function renderLobby() {
  const waiting = table.status === "waiting";
  $("[data-lobby]").hidden = !waiting;
  if (!waiting) return;
  $("[data-code]").textContent = table.code;
  $("[data-join-link]").href = table.join_url;
  $("[data-watch-link]").href = table.watch_url;
  const seated = table.you.length > 0;
  const form = $("[data-join-form]");
  form.hidden = watching || seated;
  if (!form.hidden && !$("[data-join-seed]").value) $("[data-join-seed]").value = randomSeed();
  const full = table.seats.every((seat) => seat.taken);
  $("[data-start]").hidden = !table.creator || !full;
  status(full ? t("tableReady") : t("tableWaiting"));
}

function renderSeats() {
  const list = $("[data-seats]");
  list.replaceChildren();
  const match = table.match;
  for (const seat of table.seats) {
    const item = document.createElement("li");
    item.dataset.seat = seat.seat;
    const played = match ? match.seats[seat.seat] : null;
    const parts = [seatName(seat.seat)];
    if (table.you.includes(seat.seat)) parts.push(t("tableYou"));
    if (played) parts.push(plural("seatPoints", played.totals.total));
    if (match && match.ranks) parts.push(ordinal(match.ranks[seat.seat]));
    if (played && played.dice && match.turn === seat.seat) parts.push(played.dice.join(" "));
    item.textContent = parts.join(" · ");
    if (match && match.turn === seat.seat) item.setAttribute("aria-current", "true");
    list.append(item);
  }
}

function renderBoard() {
  const board = $("[data-board]");
  board.hidden = !myTurn();
  if (board.hidden) return;
  const match = table.match;
  const seat = match.seats[match.turn];
  const passing = table.you.length > 1;
  $("[data-board-seat]").textContent = passing
    ? t("tablePassTo", { name: seat.name }) : t("tableYourTurn");
  dice.forEach((button, position) => {
    const face = seat.dice ? seat.dice[position] : 0;
    button.dataset.face = String(face);
    button.disabled = !seat.dice || seat.rolls_left === 0;
    button.setAttribute("aria-pressed", String(hold[position]));
    button.classList.toggle("held", hold[position]);
  });
  $("[data-roll]").disabled = seat.rolls_left === 0;
  $("[data-rolls-left]").textContent = seat.rolls_left === 0 ? t("rollsLeftNone")
    : plural("rollsLeft", seat.rolls_left);
  const boxes = $("[data-boxes]");
  boxes.replaceChildren();
  for (const box of match.play ? match.play.allowed : []) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "box";
    button.dataset.box = box;
    button.textContent = plural("boxOffer", match.play.previews[box],
      { name: boxNames[box] || box });
    button.addEventListener("click", () => act("score", { category: box }));
    item.append(button);
    boxes.append(item);
  }
}

function renderTurnStatus() {
  const match = table.match;
  if (!match || table.status === "waiting") return;
  if (match.status !== "playing") {
    status(t("tableEnded"));
  } else if (myTurn()) {
    status(table.you.length > 1 ? t("tablePassTo", { name: match.seats[match.turn].name })
      : t("tableYourTurn"));
  } else {
    status(t(watching ? "tableWatching" : "tableTheirTurn", { name: seatName(match.turn) }));
  }
}

function renderEnd() {
  const match = table.match;
  const ended = match && match.status !== "playing";
  $("[data-end]").hidden = !ended;
  if (!ended) return;
  const winners = match.result ? match.result.winners : [];
  const names = listText(winners.map((index) => seatName(index)));
  $("[data-winners]").textContent = plural("tableWinners", winners.length, { names });
  const ranks = $("[data-ranks]");
  if (ranks.childElementCount === 0) {
    const order = match.seats.map((seat) => seat.seat)
      .sort((a, b) => match.ranks[a] - match.ranks[b]);
    for (const index of order) {
      const item = document.createElement("li");
      item.dataset.rankSeat = index;
      item.value = match.ranks[index]; // the list's number is the rank: tied seats share it
      const line = document.createElement("span");
      line.dataset.rankLine = index;
      line.textContent = plural("rankRow", match.seats[index].totals.total,
        { name: seatName(index) });
      const review = document.createElement("span");
      review.dataset.review = index;
      item.append(line, " · ", review);
      ranks.append(item);
    }
    loadReviews(match);
  }
}

async function loadReviews(match) {
  for (const seat of match.seats) {
    const line = root.querySelector(`[data-review="${seat.seat}"]`);
    try {
      const review = await getComputed(`/matches/${match.id}/review?seat=${seat.seat}`, () => {
        line.textContent = t("tableReviewComputing");
      });
      line.textContent = plural("tableReview", lossTenths(review.loss), {}, { digits: 1 });
    } catch {
      line.textContent = ""; // no coach for now: the ranks stand without it
    }
  }
}

function renderClock() {
  const clock = $("[data-clock]");
  const playing = table?.match?.status === "playing";
  clock.hidden = deadline === null || !playing;
  if (!clock.hidden) {
    const left = Math.max(0, Math.ceil((deadline - performance.now()) / 1000));
    clock.textContent = t("tableClock", { n: left });
  }
}

function render() {
  renderLobby();
  renderSeats();
  renderBoard();
  renderTurnStatus();
  renderEnd();
  renderClock();
}

async function act(action, body) {
  const number = table.match.next_action;
  acting += 1;
  try {
    const answer = await postJson(`/tables/${tableId}/${action}`, { ...body, roll: number },
      { retries: 2 });
    if (action === "score") hold = [false, false, false, false, false];
    setWritten(answer.table);
  } catch (error) {
    status(errorText(error));
    refresh();
  } finally {
    acting -= 1;
  }
}

async function verify() {
  const results = $("[data-verify-results]");
  results.replaceChildren();
  status(t("tableVerifying"));
  const fairness = await import(root.dataset.fairness);
  const ledger = await getJson("/ledger");
  const checks = await fairness.verifyMatchInLedger(ledger, { match: table.match });
  const translate = await loadDetailTranslator(language());
  const shared = checks.filter((check) => !/^seat \d+ /.test(check.name));
  const sharedOk = shared.every((check) => check.ok !== false);
  verified = table.match.seats.map((seat) => {
    const own = checks.filter((check) => check.name.startsWith(`seat ${seat.seat} `));
    const failed = [...shared, ...own].find((check) => check.ok === false);
    return { seat: seat.seat, ok: sharedOk && own.length > 0 && !failed, failed };
  });
  for (const outcome of verified) {
    const item = document.createElement("li");
    item.dataset.verifySeat = outcome.seat;
    item.dataset.ok = String(outcome.ok);
    item.textContent = outcome.ok ? t("tableVerifyOk", { name: seatName(outcome.seat) })
      : t("tableVerifyBad", { name: seatName(outcome.seat),
        detail: outcome.failed ? translate(outcome.failed.detail) : "" });
    results.append(item);
  }
  status(t("tableEnded"));
}

function listen() {
  const source = new EventSource(`/api/v1/tables/${tableId}/events`);
  source.addEventListener("snapshot", (event) => {
    if (written === 0) setTable(JSON.parse(event.data));
    else refresh(); // a snapshot may have been taken before this page's own write
  });
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
    if (data.status !== "playing") return; // the end's event follows in the same write
    if (!applyActions(data)) return refresh();
    render();
    if (data.by === "clock" && data.actions.length) {
      status(t("tableClockPlayed", { name: seatName(data.actions[0].seat) }));
    }
  });
  source.addEventListener("ended", () => {
    source.close();
    if (table?.match?.status === "playing") refresh(); // the result, the seeds, the transcripts
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

dice.forEach((button, position) => {
  button.addEventListener("click", () => {
    hold[position] = !hold[position];
    render();
  });
});
$("[data-roll]").addEventListener("click", () => {
  const seat = table.match.seats[table.match.turn];
  act("roll", { hold: seat.dice ? hold : null });
});
$("[data-join-form]").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    const answer = await postJson(`/tables/${tableId}/join`, {
      name: $("[data-join-name]").value, client_seed: $("[data-join-seed]").value });
    setWritten(answer.table);
  } catch (error) {
    status(errorText(error));
  }
});
$("[data-start]").addEventListener("click", async () => {
  try {
    setWritten((await postJson(`/tables/${tableId}/start`, {})).table);
  } catch (error) {
    status(errorText(error));
  }
});
$("[data-verify]").addEventListener("click", verify);
setInterval(renderClock, 250);
listen();

// The end of a practice game or a game against the computer (practice-match.js): the ranks
// and totals, the coach's review of each seat, "Play again" (a new match with the same sheet,
// bots and dealing) and "Verify the rolls", which recomputes every seat's game in this browser
// (fairness.js) from the revealed seed and the transcripts this device saved as the game went.

import { getComputed, getJson, postJson } from "./api.js";
import { checkLabel, loadDetailTranslator } from "./check-texts.js";
import { verifyMatchInLedger } from "./fairness.js";
import { language, lossTenths, ordinal, plural, t } from "./i18n.js";
import { savedMatch } from "./practice-store.js";

const MISTAKES_SHOWN = 3;

/** A decision as a reader says it: a box's name, or the dice kept. */
export function choiceText(choice, boxNames) {
  if (choice.kind === "box") {
    return boxNames[choice.box] ?? choice.box;
  }
  return t("keepDice", { dice: choice.keep.length ? choice.keep.join(" ") : t("keepNothing") });
}

/** The reader's own outcome: their total alone, their win, tie or rank. */
function outcome(match) {
  if (match.status === "expired") {
    return t("matchExpired");
  }
  const own = match.seats[match.you ?? 0];
  if (match.seats.length === 1) {
    return plural("soloTotal", own.totals.total);
  }
  if (match.you === null) {
    return "";
  }
  const rank = match.ranks[match.you];
  if (rank === 1) {
    return match.ranks.filter((other) => other === rank).length > 1
      ? t("youTiedFirst") : t("youWon");
  }
  return t("youRanked", { rank: ordinal(rank), players: match.seats.length });
}

/** Each seat by rank, its total (a tie shares its rank's number). */
function showRanks(list, match, seatName) {
  const order = match.seats.map((seat) => seat.seat)
    .sort((a, b) => (match.ranks?.[a] ?? 0) - (match.ranks?.[b] ?? 0) || a - b);
  list.replaceChildren(...order.map((index) => {
    const seat = match.seats[index];
    const item = document.createElement("li");
    item.dataset.seat = String(index);
    if (match.ranks) {
      item.value = match.ranks[index];
    }
    item.classList.toggle("you", index === match.you);
    item.textContent = plural("rankRow", seat.totals.total, { name: seatName(seat) });
    return item;
  }));
}

/**
 * The end card of `view` ({root, match, matchId, seatName, boxNames}): the outcome, the ranks,
 * the review of the reader's seat (a button per seat shows another's) and Verify; `focus`
 * moves the focus to the card's title (the game just ended under the reader's eyes).
 */
export function showEnd(view, { focus }) {
  const { root, match } = view;
  const card = root.querySelector("[data-endgame]");
  card.hidden = false;
  card.querySelector("[data-end-outcome]").textContent = outcome(match);
  showRanks(card.querySelector("[data-end-ranks]"), match, view.seatName);
  card.querySelector("[data-verify]").hidden = match.result === null;
  if (match.status === "finished") {
    showReviews(view, card.querySelector("[data-review]"));
  }
  if (focus) {
    card.querySelector("#end-title").focus();
  }
}

/** The review section: a button per seat when there are several, the chosen seat's review. */
function showReviews(view, section) {
  const { match } = view;
  const first = match.you ?? 0;
  let choices = section.querySelector("[data-review-seats]");
  if (match.seats.length > 1 && !choices) {
    choices = document.createElement("p");
    choices.className = "review-seats";
    choices.dataset.reviewSeats = "";
    choices.append(...match.seats.map((seat) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "button secondary small";
      button.dataset.reviewSeat = String(seat.seat);
      button.textContent = view.seatName(seat);
      button.addEventListener("click", () => showReview(view, section, seat.seat));
      return button;
    }));
    section.querySelector("[data-review-headline]").before(choices);
  }
  showReview(view, section, first);
}

/** The coach's review of seat `index`: what it gave away, its costliest decisions. */
async function showReview(view, section, index) {
  const { match } = view;
  for (const button of section.querySelectorAll("[data-review-seat]")) {
    button.setAttribute("aria-pressed", String(button.dataset.reviewSeat === String(index)));
  }
  section.dataset.seat = String(index);
  const headline = section.querySelector("[data-review-headline]");
  const list = section.querySelector("[data-review-mistakes]");
  const showComputing = () => {
    headline.textContent = t("reviewComputing");
    list.replaceChildren();
    section.hidden = false;
  };
  const own = index === match.you || (match.you === null && match.seats.length === 1);
  const name = view.seatName(match.seats[index]);
  try {
    const review = await getComputed(
      `/matches/${encodeURIComponent(view.matchId)}/review?seat=${index}`, showComputing);
    if (section.dataset.seat !== String(index)) {
      return;  // another seat was chosen meanwhile
    }
    headline.textContent = own
      ? plural("reviewLoss", lossTenths(review.loss), {}, { digits: 1 })
      : plural("seatReviewLoss", lossTenths(review.loss), { name }, { digits: 1 });
    const mistakes = review.decisions.filter((decision) => decision.loss > 0.05)
      .sort((a, b) => b.loss - a.loss).slice(0, MISTAKES_SHOWN);
    list.replaceChildren(...mistakes.map((decision) => {
      const item = document.createElement("li");
      item.textContent = plural(own ? "reviewMistake" : "seatMistake", decision.loss, {
        name, turn: decision.turn, dice: decision.dice.join(" "),
        chosen: choiceText(decision.chosen, view.boxNames),
        best: choiceText(decision.best, view.boxNames),
      }, { digits: 1 });
      return item;
    }));
    section.hidden = false;
  } catch {
    showComputing();
  }
}

/** What a new match with the same seats asks for: the sheet, the bots' levels, the dealing. */
export function sameSeats(match) {
  const options = { ruleset: match.ruleset,
    bots: match.seats.filter((seat) => seat.kind === "bot").map((seat) => seat.bot) };
  if (match.dealing === "duplicate") {
    options.duplicate = true;
  }
  return options;
}

/** Start a new match with the same seats and go to it. */
export async function playAgain(match) {
  const { match: created } = await postJson("/matches", sameSeats(match));
  window.location.assign(`/practice/${encodeURIComponent(created.id)}`);
}

function checkItem(check, view, translate) {
  const item = document.createElement("li");
  const state = check.ok === true ? "ok" : check.ok === false ? "fail" : "skip";
  item.className = state;
  item.dataset.check = check.name;
  const mark = document.createElement("span");
  mark.className = "mark";
  mark.textContent = state === "ok" ? "✓" : state === "fail" ? "✗" : "–";
  mark.setAttribute("aria-label",
    t(state === "ok" ? "yesMark" : state === "fail" ? "noMark" : "skipMark"));
  const name = document.createElement("span");
  name.className = "check-name";
  name.textContent = checkLabel(check.name, { boxNames: view.boxNames,
    seatName: (index) => view.seatName(view.match.seats[index]) });
  const detail = document.createElement("span");
  detail.className = "detail";
  detail.textContent = translate(check.detail);
  item.append(mark, name, detail);
  return item;
}

/** Recompute the game in this browser: the saved transcripts against the published result. */
export async function verify(view) {
  const { match } = view;
  const card = view.root.querySelector("[data-endgame]");
  const verdict = card.querySelector("[data-verdict]");
  verdict.hidden = false;
  verdict.className = "verdict";
  verdict.textContent = t("checking");
  const saved = savedMatch(view.matchId);
  const transcripts = saved ? saved.transcripts : match.seats.map((seat) => seat.transcript);
  const { entries } = await getJson("/ledger");
  const answer = { result: match.result, seats: transcripts.map((transcript) => ({ transcript })) };
  const noted = saved ? { commitment: saved.commitment, clientSeed: saved.my_client_seed } : {};
  const checks = await verifyMatchInLedger(entries, answer, noted);
  const translate = await loadDetailTranslator(language());
  card.querySelector("[data-checks]").replaceChildren(
    ...checks.map((check) => checkItem(check, view, translate)));
  const failed = checks.filter((check) => check.ok === false).length;
  const passed = checks.length > 0 && checks.every((check) => check.ok === true);
  verdict.className = `verdict ${passed ? "ok" : "fail"}`;
  verdict.textContent = passed ? t("matchAllGood") : plural("failed", failed);
}

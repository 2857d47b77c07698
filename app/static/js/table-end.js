// The end of a table: the winners, every seat's rank and total with the coach's review of its
// game, "Play again" (the table that follows, the same for every seat that asks: this page
// moves to its lobby, which shows its invite link), and "Verify the rolls", which checks every seat's game in
// this browser (fairness.js) from the signed result and the transcripts the page followed.

import { errorText, getComputed, getJson, postJson } from "./api.js";
import { language, listText, lossTenths, plural, t } from "./i18n.js";

/** A fresh client seed: 24 hex digits. */
export function randomSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Show the results under `root` once: `match` the ended match (`id`, `ranks`, `winners`),
 * `totals` each seat's total, `seatName(i)` a seat's name, `seated` whether this page holds a
 * seat (it may then play again).
 */
export function showEnd(root, { match, totals, seatName, seated }) {
  const card = root.querySelector("[data-end]");
  card.hidden = false;
  const winners = match.winners ?? match.ranks.flatMap((rank, seat) => (rank === 1 ? [seat] : []));
  root.querySelector("[data-winners]").textContent = plural("tableWinners", winners.length,
    { names: listText(winners.map(seatName)) });
  root.querySelector("[data-again]").hidden = !seated;
  const ranks = root.querySelector("[data-ranks]");
  if (ranks.childElementCount > 0) return;
  const order = match.ranks.map((_, seat) => seat).sort((a, b) => match.ranks[a] - match.ranks[b]);
  for (const index of order) {
    const item = document.createElement("li");
    item.dataset.rankSeat = index;
    item.value = match.ranks[index]; // the list's number is the rank: tied seats share it
    const line = document.createElement("span");
    line.dataset.rankLine = index;
    line.textContent = plural("rankRow", totals[index], { name: seatName(index) });
    const review = document.createElement("span");
    review.dataset.review = index;
    review.className = "table-review";
    item.append(line, " · ", review);
    ranks.append(item);
  }
  loadReviews(root, match);
}

async function loadReviews(root, match) {
  for (let seat = 0; seat < match.ranks.length; seat += 1) {
    const line = root.querySelector(`[data-review="${seat}"]`);
    try {
      const review = await getComputed(`/matches/${match.id}/review?seat=${seat}`, () => {
        line.textContent = t("tableReviewComputing");
      });
      line.textContent = plural("tableReview", lossTenths(review.loss), {}, { digits: 1 });
    } catch {
      line.textContent = ""; // no coach for now: the ranks stand without it
    }
  }
}

/** "Play again": ask for the following table and go to it. */
export async function playAgain(root, tableId, status) {
  const button = root.querySelector("[data-again]");
  button.disabled = true;
  try {
    const answer = await postJson(`/tables/${tableId}/again`, { client_seed: randomSeed() },
      { retries: 2 });
    window.location.assign(`/tables/${answer.table.id}`);
  } catch (error) {
    status(errorText(error));
    button.disabled = false;
  }
}

/** "Verify the rolls" for `match` (its `result` and every seat's `transcript`): one line per
 * seat, ✓ when every check of the match and of that seat holds. */
export async function verifyTable(root, match, seatName) {
  const results = root.querySelector("[data-verify-results]");
  results.replaceChildren();
  const fairness = await import(root.dataset.fairness);
  const ledger = await getJson("/ledger");
  const checks = await fairness.verifyMatchInLedger(ledger, { match });
  const { loadDetailTranslator } = await import("./check-texts.js");
  const translate = await loadDetailTranslator(language());
  const shared = checks.filter((check) => !/^seat \d+ /.test(check.name));
  const sharedOk = shared.every((check) => check.ok !== false);
  for (const seat of match.seats) {
    const own = checks.filter((check) => check.name.startsWith(`seat ${seat.seat} `));
    const failed = [...shared, ...own].find((check) => check.ok === false);
    const ok = sharedOk && own.length > 0 && !failed;
    const item = document.createElement("li");
    item.dataset.verifySeat = seat.seat;
    item.dataset.ok = String(ok);
    item.textContent = ok ? t("tableVerifyOk", { name: seatName(seat.seat) })
      : t("tableVerifyBad", { name: seatName(seat.seat),
        detail: failed ? translate(failed.detail) : "" });
    results.append(item);
  }
}

// The other seats' moves of a match as practice-match.js plays them back: which moves are new,
// how each is said, and each seat's column of the shared sheet as it stands after a move.

import { listText, plural, t } from "./i18n.js";

/** The moves of the seats other than the reader's from action `from` on, in play order:
 * `{index, entry}` with `entry` a transcript entry of seat `index`. */
export function movesFrom(match, from) {
  const queue = [];
  const counts = match.seats.map(() => 0);
  match.order.forEach((seatIndex, number) => {
    const entry = match.seats[seatIndex].transcript[counts[seatIndex]];
    counts[seatIndex] += 1;
    if (number >= from && seatIndex !== match.you) {
      queue.push({ index: seatIndex, entry });
    }
  });
  return queue;
}

/** Each seat's last box in `queue`: seat index → its position in the queue. */
export function lastScores(queue) {
  const last = new Map();
  queue.forEach(({ index, entry }, position) => {
    if (entry.action === "score") {
      last.set(index, position);
    }
  });
  return last;
}

/** A move as the page says it: "Computer 1 rolled 3, 4 …" or "… scored 12 points in Sixes". */
export function moveText(entry, name, boxNames) {
  if (entry.action === "roll") {
    return t("botRolled", { name, dice: listText(entry.dice) });
  }
  return plural("botScored", entry.points,
    { name, box: boxNames[entry.category] ?? entry.category });
}

/** A seat's column after `entry`: `shown` as it stood, `final` the seat as the server has it
 * now, which its `last` box reaches (the totals wait for it). */
export function columnAfter(shown, final, entry, last) {
  if (entry.action !== "score") {
    return shown;
  }
  return last ? final
    : { boxes: { ...shown.boxes, [entry.category]: entry.points }, totals: shown.totals };
}

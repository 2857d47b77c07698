// The shared score sheet's seat columns (the `score_sheet` macro of _play_board.html called
// with `seats`): each seat's filled boxes, totals and upper-bonus progress, and the seat
// playing highlighted. The viewer's own column is the box buttons board.js drives (showSheet,
// which fills `[data-total]`); this module never touches them.
//
// The sheet (`[data-seat-sheet]`, `data-you` the viewer's seat or "" for a spectator) has a
// row per box (`[data-row-box=<box>]`) and per total (`[data-row-total=<key>]`, keys upper,
// progress, upper_bonus, lower, extra_bonus, total); a seat's cell in a row is
// `[data-seat=<n>][data-seat-box=<box>]` or `[data-seat=<n>][data-seat-total=<key>]`, and its
// column head `[data-seat-head][data-seat=<n>]`.

import { formatNumber } from "./i18n.js";

/** The shared sheet: `root` itself or the first one inside it (null if there is none). */
export function seatSheetOf(root) {
  return root.matches("[data-seat-sheet]") ? root : root.querySelector("[data-seat-sheet]");
}

/** Write `text` in `cell` (its `[data-points]` part, or the cell itself). */
function write(cell, text) {
  (cell.querySelector("[data-points]") ?? cell).textContent = text;
}

/**
 * Show seat `seat`'s column: `boxes` the points of its filled boxes ({box: points}), `totals`
 * its totals as the API gives them ({upper, upper_bonus, lower, extra_bonus, total}); the
 * progress row shows "upper/threshold" (class `done` once the bonus is earned). A box filled
 * since the column was last shown gets the class `just-filled` (the ink animation). Works on
 * the viewer's own seat too: only its progress cell is this module's.
 */
export function showSeatColumn(root, seat, { boxes, totals }) {
  const sheet = seatSheetOf(root);
  if (!sheet) {
    return;
  }
  const shownBefore = sheet.dataset[`shown${seat}`] === "1";
  for (const cell of sheet.querySelectorAll(`[data-seat="${seat}"][data-seat-box]`)) {
    const id = cell.dataset.seatBox;
    const filled = Object.hasOwn(boxes, id);
    const newly = filled && !cell.classList.contains("filled");
    cell.classList.toggle("filled", filled);
    write(cell, filled ? formatNumber(boxes[id]) : "");
    cell.classList.toggle("just-filled", newly && shownBefore);
  }
  const threshold = Number(sheet.dataset.bonusThreshold || 0);
  for (const cell of sheet.querySelectorAll(`[data-seat="${seat}"][data-seat-total]`)) {
    const key = cell.dataset.seatTotal;
    if (key === "progress") {
      const upper = Math.min(totals.upper ?? 0, threshold);
      write(cell, `${formatNumber(upper)}/${formatNumber(threshold)}`);
      cell.classList.toggle("done", (totals.upper ?? 0) >= threshold);
    } else if (Object.hasOwn(totals, key)) {
      write(cell, formatNumber(totals[key]));
    }
  }
  sheet.dataset[`shown${seat}`] = "1";
}

/**
 * Highlight the column of seat `seat` (null: nobody plays, as at the end): its head and
 * cells get the class `playing`, its head `aria-current="true"`; the sheet gets the class
 * `own-playing` when the seat is the viewer's.
 */
export function markPlaying(root, seat) {
  const sheet = seatSheetOf(root);
  if (!sheet) {
    return;
  }
  for (const element of sheet.querySelectorAll("[data-seat]")) {
    const playing = seat !== null && element.dataset.seat === String(seat);
    element.classList.toggle("playing", playing);
    if (element.hasAttribute("data-seat-head")) {
      if (playing) {
        element.setAttribute("aria-current", "true");
      } else {
        element.removeAttribute("aria-current");
      }
    }
  }
  sheet.classList.toggle("own-playing", seat !== null && sheet.dataset.you === String(seat));
}

function span(className, text) {
  const element = document.createElement("span");
  if (className) {
    element.className = className;
  }
  element.textContent = text;
  return element;
}

/** A seat's cell of a row named `label`: `kind` "box" or "total", `key` the box or total. */
function seatCell(index, name, kind, key, label) {
  const cell = span("seat-cell", "");
  cell.dataset.seat = String(index);
  cell.dataset[kind === "box" ? "seatBox" : "seatTotal"] = key;
  const points = span("", "");
  points.dataset.points = "";
  cell.append(span("visually-hidden", `${name}, ${label} `), points);
  return cell;
}

/**
 * Draw the sheet's columns again for `seats` (each {name, short?}, in seat order), the
 * viewer's column staying the one the page was drawn with: for a page whose seats change
 * after it was drawn (someone sits down). The cells start empty: show each seat again.
 */
export function setSeats(root, seats) {
  const sheet = seatSheetOf(root);
  if (!sheet) {
    return;
  }
  const you = sheet.dataset.you === "" ? null : Number(sheet.dataset.you);
  const others = seats.map((seat, index) => ({ ...seat, index }))
    .filter((seat) => seat.index !== you);
  sheet.dataset.others = String(others.length);
  for (const key of Object.keys(sheet.dataset).filter((name) => name.startsWith("shown"))) {
    delete sheet.dataset[key];
  }
  for (const head of sheet.querySelectorAll(".seat-heads")) {
    head.querySelectorAll(":scope > [data-seat-head]").forEach((old) => old.remove());
    const own = head.querySelector("[data-seat-head]");
    if (own && seats[you]) {
      own.textContent = seats[you].short || seats[you].name;
      own.title = seats[you].name;
    }
    head.append(...others.map((seat) => {
      const cell = span("seat-head", "");
      cell.dataset.seatHead = "";
      cell.dataset.seat = String(seat.index);
      cell.title = seat.name;
      const shown = span("", seat.short || seat.name);
      shown.setAttribute("aria-hidden", "true");
      cell.append(shown, span("visually-hidden", seat.name));
      return cell;
    }));
  }
  for (const row of sheet.querySelectorAll("[data-row-box], [data-row-total]")) {
    row.querySelectorAll(":scope > .seat-cell").forEach((old) => old.remove());
    const box = row.dataset.rowBox;
    const label = row.querySelector(".box-name, .seat-lead > span")?.textContent ?? "";
    row.append(...others.map((seat) => seatCell(seat.index, seat.name, box ? "box" : "total",
      box ?? row.dataset.rowTotal, label)));
  }
}

// A table's shared score sheet (the `score_sheet` macro drawn with every seat a plain column,
// filled by seat-sheet.js): each seat's boxes, totals and upper-bonus progress, the seat playing
// highlighted, the columns of this device's seats marked; on a turn this device plays, with
// its dice showing, that seat's column offers the boxes allowed with what each would score (a
// button a tap fills) and marks the others "—". The seat that plays changes from turn to turn
// (pass and play: several on one device), so the offers go in whichever column is playing.

import { formatNumber, plural } from "./i18n.js";
import { markPlaying, setSeats, showSeatColumn } from "./seat-sheet.js";

let drawn = ""; // the columns the sheet was last drawn with

/** Draw the sheet's columns for `columns` (each seat's {name, short}) unless drawn already. */
export function addSeatColumns(root, columns) {
  const key = JSON.stringify(columns);
  if (key === drawn) return;
  drawn = key;
  setSeats(root, columns);
}

function offerButton(cell, box) {
  let button = cell.querySelector("[data-pick]");
  if (!button) {
    button = document.createElement("button");
    button.type = "button";
    button.className = "box-pick";
    button.dataset.pick = box;
    cell.append(button);
  }
  return button;
}

/**
 * Fill the sheet: `seats` each seat's `boxes` and `totals`, `current` the seat playing (null:
 * none), `mine` the seats this page shows as its own, `offer` the seat whose boxes are offered
 * (null: none) with `play` (`allowed`, `previews`), `locked` while an action is on its way,
 * `boxNames` each box's name.
 */
export function showSeatSheet(root, { seats, current, mine, offer, play, locked, boxNames }) {
  seats.forEach((seat, index) => showSeatColumn(root, index, seat));
  markPlaying(root, current);
  for (const head of root.querySelectorAll("[data-seat-head]")) {
    head.classList.toggle("mine", mine.includes(Number(head.dataset.seat)));
  }
  for (const cell of root.querySelectorAll("[data-seat][data-seat-box]")) {
    const seat = Number(cell.dataset.seat);
    const box = cell.dataset.seatBox;
    cell.classList.toggle("mine", mine.includes(seat));
    const offered = seat === offer && play !== null && !Object.hasOwn(seats[seat].boxes, box);
    const allowed = offered && play.allowed.includes(box);
    if (!allowed) {
      cell.querySelector("[data-pick]")?.remove();
      if (offered) cell.querySelector("[data-points]").textContent = "—";
      continue;
    }
    const button = offerButton(cell, box);
    const points = play.previews[box];
    button.textContent = formatNumber(points);
    button.disabled = locked;
    button.setAttribute("aria-label", plural("boxPreview", points, { name: boxNames[box] }));
  }
}

// The board that the daily play page and the match page share: the five dice and their holds,
// the Roll button, the score sheet with its previews and totals, the keyboard, and the words
// for a failed request. Each page keeps its own state and calls these with what it shows.

import { ApiError, errorText } from "./api.js";
import { plural, t } from "./i18n.js";

export const NO_HOLD = Object.freeze([false, false, false, false, false]);

/** The board's elements inside `root` (the page's `_play_board.html` macros draw them). */
export function boardParts(root) {
  return {
    dice: [...root.querySelectorAll("[data-die]")],
    rollButton: root.querySelector("[data-roll]"),
    rollLabel: root.querySelector("[data-roll-label]"),
    rollsLeftText: root.querySelector("[data-rolls-left-text]"),
    rollPips: [...root.querySelectorAll(".rolls-left i")],
    statusLine: root.querySelector("[data-status-line]"),
    boxes: [...root.querySelectorAll("[data-box]")],
  };
}

/** The five dice: their faces (`dice` null before the turn's first roll), which are held,
 * and whether a click may hold one now. */
export function showDice(parts, dice, holds, holdable) {
  parts.dice.forEach((button, position) => {
    const face = dice ? dice[position] : 0;
    const held = Boolean(dice) && holds[position];
    button.dataset.face = String(face);
    button.setAttribute("aria-pressed", String(held));
    button.disabled = !dice;
    button.setAttribute("aria-disabled", String(!holdable));
    const n = position + 1;
    const label = !face ? t("dieBlank", { n }) : t(held ? "dieHeld" : "die", { n, face });
    button.setAttribute("aria-label", label);
  });
}

/** The Roll button: `left` rolls in the turn, usable or not, "Rolling…" while `busy`. */
export function showRollButton(parts, { left, usable, busy }) {
  parts.rollButton.setAttribute("aria-disabled", String(!usable));
  parts.rollLabel.textContent = busy ? t("rolling") : t("roll");
  parts.rollsLeftText.textContent = left === 0 ? t("rollsLeftNone") : plural("rollsLeft", left);
  parts.rollPips.forEach((pip, index) => pip.classList.toggle("spent", index >= left));
}

/** A box's spoken label: filled with its points, playable with its preview, forbidden, free. */
function boxLabel(name, { filled, allowed, forbidden, points }) {
  if (filled) {
    return plural("boxFilled", points, { name });
  }
  if (allowed) {
    return plural("boxPreview", points, { name });
  }
  return forbidden ? t("boxForbidden", { name }) : t("boxFree", { name });
}

/**
 * The score sheet: `boxes` the points of the filled boxes, `play` the turn's `allowed` boxes
 * and their `previews` once the dice are rolled (else null); no box is clickable while
 * `locked`. `totals` go into every `[data-total=<key>]` under `root`.
 */
export function showSheet(root, parts, { boxes, play, totals, locked = false }) {
  for (const button of parts.boxes) {
    const id = button.dataset.box;
    const filled = Object.hasOwn(boxes, id);
    const allowed = !filled && play !== null && play.allowed.includes(id);
    const forbidden = !filled && play !== null && !allowed;
    const points = filled ? boxes[id] : allowed ? play.previews[id] : null;
    button.classList.toggle("filled", filled);
    button.classList.toggle("free", !filled);
    button.classList.toggle("playable", allowed);
    button.classList.toggle("forbidden", forbidden);
    button.disabled = !allowed || locked;
    button.querySelector("[data-score]").textContent =
      points !== null ? String(points) : forbidden ? "—" : "";
    button.setAttribute("aria-label",
      boxLabel(button.dataset.name, { filled, allowed, forbidden, points }));
  }
  for (const [key, value] of Object.entries(totals)) {
    for (const element of root.querySelectorAll(`[data-total="${key}"]`)) {
      element.textContent = String(value);
    }
  }
}

/** The status line: its `text` and `kind` (its look: "", "restriction", "error" …). */
export function showStatus(parts, text, kind) {
  parts.statusLine.className = `status-line${kind ? ` ${kind}` : ""}`;
  parts.statusLine.textContent = text;
}

/** Start a CSS animation `className` on `element` again, even if it just ran. */
export function replay(element, className) {
  element.classList.remove(className);
  void element.offsetWidth;
  element.classList.add(className);
}

/** A failed request in the reader's words: a lost connection, or the API's own message. */
export function describe(error) {
  if (error instanceof ApiError && error.status === 0) {
    return t("errorNetwork");
  }
  return errorText(error);
}

/** Focus the next (`step` 1) or previous (-1) clickable box after `from`, round the sheet. */
function moveInSheet(parts, from, step) {
  const enabled = parts.boxes.filter((button) => !button.disabled);
  const index = enabled.indexOf(from);
  enabled[(index + step + enabled.length) % enabled.length]?.focus();
}

/**
 * Listen to the board's keys: 1–5 hold or release a die, ↑ ↓ move on the sheet, Space or
 * Enter roll (outside buttons and links); `more` maps other keys (lowercase) to handlers that
 * return true when they used the key. Nothing happens while `ready()` is false or in a field.
 */
export function listenToKeys(parts, { ready, hold, roll, more = {} }) {
  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || !ready()) {
      return;
    }
    const target = event.target instanceof Element ? event.target : document.body;
    if (target.closest("input, textarea, select, [contenteditable='true']")) {
      return;
    }
    const key = event.key.toLowerCase();
    const box = target.closest("[data-box]");
    if (/^[1-5]$/.test(key)) {
      event.preventDefault();
      hold(Number(key) - 1);
    } else if (Object.hasOwn(more, key) && more[key]()) {
      event.preventDefault();
    } else if (box && (key === "arrowdown" || key === "arrowup")) {
      event.preventDefault();
      moveInSheet(parts, box, key === "arrowdown" ? 1 : -1);
    } else if ((key === " " || key === "enter") && !target.closest("button, a, summary")) {
      event.preventDefault();
      roll();
    }
  });
}

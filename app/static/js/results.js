// The results page's own-history panel: streaks, best score and past games on this sheet,
// read from the games saved on this device.

import { localDate, longDate } from "./dates.js";
import { bestScore, history, streaks } from "./history.js";
import { language, plural, t } from "./i18n.js";

const panel = document.querySelector("[data-history]");
const games = history(panel.dataset.ruleset);
const { current, best } = streaks(
  games.map((game) => game.date),
  localDate(),
);
const days = (n) => plural("days", n);

panel.querySelector('[data-stat="current"]').textContent = days(current);
panel.querySelector('[data-stat="best-streak"]').textContent = days(best);
panel.querySelector('[data-stat="best-score"]').textContent = String(bestScore(games) ?? "—");

if (games.length === 0) {
  const empty = panel.querySelector("[data-history-empty]");
  empty.hidden = false;
  empty.textContent = t("noHistory");
} else {
  const table = panel.querySelector("[data-history-table]");
  const body = table.querySelector("tbody");
  for (const game of games) {
    const row = body.insertRow();
    const dateCell = row.insertCell();
    const link = document.createElement("a");
    link.href = `/results/${encodeURIComponent(game.date)}/${encodeURIComponent(game.ruleset)}`;
    link.textContent = longDate(game.date, language());
    dateCell.append(link);
    const totalCell = row.insertCell();
    totalCell.className = "num";
    totalCell.textContent = String(game.total);
    const verifyCell = row.insertCell();
    const verify = document.createElement("a");
    verify.href = `/verify?game=${encodeURIComponent(game.id)}`;
    verify.textContent = t("verify");
    verifyCell.append(verify);
  }
  table.hidden = false;
}

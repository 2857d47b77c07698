// The player's own history, from the games saved on this device: streaks and best scores.

import { addDays } from "./dates.js";
import { savedGames } from "./store.js";

/** Saved games, newest date first, optionally for one sheet only. */
export function history(ruleset = null) {
  return Object.values(savedGames())
    .filter((game) => game && typeof game.date === "string" && Number.isInteger(game.total))
    .filter((game) => ruleset === null || game.ruleset === ruleset)
    .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : b.total - a.total));
}

/**
 * The current and best runs of consecutive days played. The current run counts while its last
 * day is today or yesterday (today's game may still be ahead).
 */
export function streaks(dates, today) {
  const days = [...new Set(dates)].sort();
  let best = 0;
  let run = 0;
  let previous = null;
  for (const day of days) {
    run = previous !== null && addDays(previous, 1) === day ? run + 1 : 1;
    best = Math.max(best, run);
    previous = day;
  }
  const current = previous === today || previous === addDays(today, -1) ? run : 0;
  return { current, best };
}

/** The best total among `games`, or null. */
export function bestScore(games) {
  return games.length ? Math.max(...games.map((game) => game.total)) : null;
}

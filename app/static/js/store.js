// What this device remembers: finished games (receipt and transcript, for verifying later),
// the holds of the turn in progress, and the player's display name.

const GAMES_KEY = "yacht-daily:games";
const NAME_KEY = "yacht-daily:name";
const HOLDS_PREFIX = "yacht-daily:holds:";

function read(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    if (value === null) {
      localStorage.removeItem(key);
    } else {
      localStorage.setItem(key, value);
    }
  } catch {
    // Storage refused (private mode, quota): the game itself lives on the server.
  }
}

/** Every finished game saved on this device, by id. */
export function savedGames() {
  try {
    const games = JSON.parse(read(GAMES_KEY) || "{}");
    return games && typeof games === "object" && !Array.isArray(games) ? games : {};
  } catch {
    return {};
  }
}

/** The saved record of game `id`, or null. */
export function savedGame(id) {
  return savedGames()[id] ?? null;
}

/** Save a finished game: id, date, ruleset, name, totals, boxes, transcript and receipt. */
export function saveGame(game) {
  const games = savedGames();
  const existing = games[game.id];
  games[game.id] = {
    id: game.id,
    date: game.date,
    ruleset: game.ruleset,
    name: game.name ?? null,
    total: game.totals.total,
    totals: game.totals,
    boxes: game.boxes,
    transcript: game.transcript,
    receipt: game.receipt,
    saved_at: existing?.saved_at ?? new Date().toISOString(),
  };
  write(GAMES_KEY, JSON.stringify(games));
}

/** The holds kept for `gameId` at action `action`, or null when none match. */
export function loadHolds(gameId, action) {
  try {
    const saved = JSON.parse(read(HOLDS_PREFIX + gameId) || "null");
    if (saved && saved.action === action && Array.isArray(saved.hold) && saved.hold.length === 5) {
      return saved.hold.map(Boolean);
    }
  } catch {
    // A damaged entry just means no holds.
  }
  return null;
}

/** Remember the holds of the turn in progress so that a reload keeps them. */
export function saveHolds(gameId, action, hold) {
  write(HOLDS_PREFIX + gameId, JSON.stringify({ action, hold }));
}

/** Forget the holds of a finished game. */
export function clearHolds(gameId) {
  write(HOLDS_PREFIX + gameId, null);
}

/** The display name the player chose for the leaderboard, or "". */
export function playerName() {
  return read(NAME_KEY) || "";
}

/** Remember (or, with "", forget) the player's display name. */
export function setPlayerName(name) {
  write(NAME_KEY, name ? name : null);
}

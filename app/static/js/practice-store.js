// The matches this device saved: every seat's transcript as the page saw it, the commitment,
// the client seeds and, once over, the signed result and the server seed. "Verify the rolls"
// checks this copy against the published result. An ended match's copy is never rewritten,
// and only the latest MAX_SAVED matches are kept.

const MATCHES_KEY = "yacht-daily:matches";
const MAX_SAVED = 50;

function readAll() {
  try {
    const saved = JSON.parse(localStorage.getItem(MATCHES_KEY) || "{}");
    return saved && typeof saved === "object" && !Array.isArray(saved) ? saved : {};
  } catch {
    return {};
  }
}

function writeAll(saved) {
  try {
    localStorage.setItem(MATCHES_KEY, JSON.stringify(saved));
  } catch {
    // Storage refused (private mode, quota): the match itself lives on the server.
  }
}

/** Save the match as it stands, unless this device already holds its ended copy. */
export function saveMatch(match) {
  const saved = readAll();
  if (saved[match.id] && saved[match.id].status !== "playing") {
    return;
  }
  saved[match.id] = {
    id: match.id,
    ruleset: match.ruleset,
    status: match.status,
    // what the page was shown before the first roll, and the client seed it sent
    commitment: saved[match.id]?.commitment ?? match.commitment,
    my_client_seed: saved[match.id]?.my_client_seed ?? null,
    client_seeds: match.seats.map((seat) => seat.client_seed),
    transcripts: match.seats.map((seat) => seat.transcript),
    result: match.result,
    server_seed: match.server_seed,
    saved_at: saved[match.id]?.saved_at ?? new Date().toISOString(),
  };
  const ids = Object.keys(saved).sort((a, b) => (saved[a].saved_at < saved[b].saved_at ? 1 : -1));
  for (const stale of ids.slice(MAX_SAVED)) {
    delete saved[stale];
  }
  writeAll(saved);
}

/** Note the client seed this page sent with the first roll of match `id`. */
export function noteClientSeed(id, seed) {
  const saved = readAll();
  if (saved[id] && saved[id].my_client_seed === null) {
    saved[id].my_client_seed = seed;
    writeAll(saved);
  }
}

/** The saved copy of match `id`, or null. */
export function savedMatch(id) {
  return readAll()[id] ?? null;
}

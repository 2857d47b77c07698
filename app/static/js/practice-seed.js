// The client seed of a match: random by default (16 bytes from the browser's CSPRNG, as hex),
// kept in this tab between the practice page and the match page until the first roll sends it.

const PREFIX = "yacht-daily:client-seed:";

/** A fresh random client seed: 32 hex digits. */
export function randomClientSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Keep the client seed chosen for match `id` (this tab only). */
export function rememberClientSeed(id, seed) {
  try {
    sessionStorage.setItem(PREFIX + id, seed);
  } catch {
    // Storage refused: the match page draws a new random seed instead.
  }
}

/** The client seed chosen for match `id`, or null. */
export function chosenClientSeed(id) {
  try {
    return sessionStorage.getItem(PREFIX + id);
  } catch {
    return null;
  }
}

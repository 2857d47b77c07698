// A proof to keep (FAIRNESS.md, "The service log", A proof to keep): on a finished v2 daily game's end card, a
// "Download the proof" link once a service log checkpoint covers the day checkpoint that covers
// the game. The file is a C2SP tlog-proof@v1 of that day checkpoint's service log entry; its
// extra line is base64 of the canonical JSON of
//   {"type": "yacht-daily/game-proof/v1", "entry": <the entry: the day checkpoint's note, body
//    and the epoch key's line>, "epoch": <the epoch entry of the ledger>, "receipt": <the signed
//    receipt>, "proof": <its inclusion proof {index, size, path} in that day checkpoint>,
//    "transcript": <the game's actions>}
// so that `verify.py proof FILE` checks it with nothing else. Built from the published API:
// the game, the day's log, the service log and its entry's proof, the game's proof in the day
// checkpoint, the ledger. Nothing is shown until every piece is there and the two inclusion
// proofs hold in this browser.

import { bytesToHex, canonicalBytes, hexToBytes, inclusionRoot, leafHash, readNote,
  RECEIPT_V2_TYPE } from "./fairness.js";
import { fromBase64, readLogCheckpoint, toBase64 } from "./log-monitor.js";

export const GAME_PROOF_TYPE = "yacht-daily/game-proof/v1";
const HEADER = "c2sp.org/tlog-proof@v1";
const RETRY_MS = 20 * 1000;
const MAX_TRIES = 15; // a checkpoint within the minute, the service log's pass within seconds
const GAME_ID = /[?&]game=([0-9a-f]{32})(?:&|$)/;
const utf8 = (text) => new TextEncoder().encode(text);

async function getJson(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  return response.ok ? response.json() : null;
}

/** A day checkpoint's note as the service log enters it: the body and its first signature
 * line (the epoch key's), without the witnesses' lines after it. */
export function entryOf(note) {
  const { text } = readNote(note);
  const first = note.slice(text.length + 1).split("\n", 1)[0];
  return `${text}\n${first}\n`;
}

/** The tlog-proof@v1 text of entry `index`, its path (bytes), the signed checkpoint note and
 * the extra bytes. */
export function formatTlogProof(index, path, note, extra) {
  const lines = [HEADER, `extra ${toBase64(extra)}`, `index ${index}`, ...path.map(toBase64)];
  return `${lines.join("\n")}\n\n${note}`;
}

/** The positions of the day log's checkpoints worth asking the service log for: the latest
 * (the proof then covers the most) and the first that covers leaf `leaf`. */
function candidates(checkpoints, leaf) {
  const sizes = checkpoints.map((item) => Number(readNote(item.note).text.split("\n")[1]));
  const first = sizes.findIndex((size) => size > leaf);
  if (first < 0) return [];
  return [...new Set([sizes.length - 1, first])];
}

/** {text, name} of the game's proof file, or null while no service log checkpoint covers a
 * day checkpoint that covers the game (or the game is no finished v2 game). */
export async function buildGameProof(gameId) {
  const game = (await getJson(`/api/v1/games/${gameId}`))?.game;
  const receipt = game?.receipt;
  if (!receipt || receipt.type !== RECEIPT_V2_TYPE || !game.checkpoint) return null;
  const { date, ruleset } = receipt;
  const published = await getJson(`/api/v1/logs/${date}/${ruleset}`);
  const service = await getJson("/api/v1/log");
  if (!published || !service?.checkpoint) return null;
  const head = readLogCheckpoint(readNote(service.checkpoint).text);
  for (const position of candidates(published.checkpoints, receipt.index)) {
    const found = await getJson(
      `/api/v1/log/entries/${date}/${ruleset}/${position}?size=${head.size}`);
    if (!found) continue;
    const entry = entryOf(published.checkpoints[position].note);
    const path = found.proof.map((hash) => fromBase64(hash, 32));
    const root = await inclusionRoot(await leafHash(utf8(entry)), found.index, head.size, path);
    if (found.entry !== entry || root === null || bytesToHex(root) !== bytesToHex(head.root)) {
      return null;
    }
    const daySize = Number(readNote(entry).text.split("\n")[1]);
    const dayProof = (await getJson(`/api/v1/games/${gameId}/proof?size=${daySize}`))?.proof;
    const ledger = await getJson("/api/v1/ledger");
    const epoch = ledger?.entries?.find((item) => item.epoch === receipt.epoch
      && String(item.type).startsWith("yacht-daily/epoch/"));
    if (!dayProof || !epoch || !await receiptHolds(receipt, dayProof, entry)) return null;
    const extra = canonicalBytes({ type: GAME_PROOF_TYPE, entry, epoch, receipt,
      proof: dayProof, transcript: game.transcript });
    return { text: formatTlogProof(found.index, path, service.checkpoint, extra),
      name: `yacht-daily-${date}-${ruleset}-${gameId.slice(0, 8)}.tlog-proof` };
  }
  return null;
}

/** The receipt's inclusion proof leads its leaf to the day checkpoint's root. */
async function receiptHolds(receipt, proof, entry) {
  const lines = readNote(entry).text.split("\n");
  const { sig, ...fields } = receipt;
  const leaf = await leafHash(canonicalBytes(fields));
  const root = await inclusionRoot(leaf, proof.index, Number(lines[1]),
    proof.path.map(hexToBytes));
  return sig !== undefined && root !== null
    && toBase64(root) === lines[2] && proof.index === receipt.index;
}

/** Offer the proof of `gameId` in `holder` (its link), trying again while it is not there. */
async function offer(holder, gameId, tries = 0) {
  let built = null;
  try {
    built = await buildGameProof(gameId);
  } catch {
    built = null; // an unreachable server or a malformed answer: try again later
  }
  if (built === null) {
    if (tries + 1 < MAX_TRIES) setTimeout(() => offer(holder, gameId, tries + 1), RETRY_MS);
    return;
  }
  const link = holder.querySelector("[data-proof-link]");
  link.href = URL.createObjectURL(new Blob([built.text], { type: "text/plain" }));
  link.download = built.name;
  holder.hidden = false;
}

/** Watch the end card's verify link (play.js gives it the game's id) and offer that game's
 * proof once. */
function watch() {
  const holder = document.querySelector("[data-proof-download]");
  const verifyLink = document.querySelector("[data-verify-link]");
  if (!holder || !verifyLink) return;
  let offered = null;
  const look = () => {
    const found = GAME_ID.exec(verifyLink.getAttribute("href") ?? "");
    if (found && found[1] !== offered) {
      offered = found[1];
      offer(holder, offered);
    }
  };
  new MutationObserver(look).observe(verifyLink, { attributes: true,
    attributeFilter: ["href"] });
  look();
}

watch();

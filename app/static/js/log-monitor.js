// Every browser a monitor of the service log (FAIRNESS.md, "The service log", Monitors). On
// every page, after load, at most once a minute: fetch GET /api/v1/log, check its
// checkpoint with the log key pinned on this browser's first sight of the log, and check that it
// extends the checkpoint this browser kept (RFC 9162 consistency). Kept in localStorage per log
// origin: the pinned vkey and the latest signed checkpoint seen. A proof that fails, two signed
// checkpoints of one size with two roots, or another key raise the alarm (#log-alarm, role
// "alert"), whose "Download the evidence" file is the fork file byte for byte as
// fairness.service_log.format_fork writes it. The alarm says "proven" only under
// fairness.service_log.misbehaviour's rule; an unreachable server or a browser without Ed25519
// stays silent. document.documentElement.dataset.logMonitor says what the last visit did.

import { bytesToHex, consistencyRoots, ed25519Supported, noteKeyId, readNote, sha256,
  verifyConsistency, verifyEd25519 } from "./fairness.js";
import { t } from "./i18n.js";

export const FORK_TYPE = "yacht-daily/service-log-fork/v1";
export const STORAGE_KEY = "yd-service-log";
const CHECK_EVERY_MS = 60 * 1000;
const NOTE_ED25519 = 1;
const MAX_SIZE = Number.MAX_SAFE_INTEGER;
const MAX_PROOF_HASHES = 64;
const utf8 = (text) => new TextEncoder().encode(text);

// ------------------------------------------------------------------ the core's rules, again

/** Strict canonical standard base64 of `size` bytes (any size when null), or throw. */
export function fromBase64(text, size = null) {
  if (typeof text !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4) {
    throw new Error(`${JSON.stringify(text)} is not base64`);
  }
  const raw = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  if (toBase64(raw) !== text || (size !== null && raw.length !== size)) {
    throw new Error(`${JSON.stringify(text)} is not canonical base64 of ${size ?? "some"} bytes`);
  }
  return raw;
}

/** Standard padded base64 of bytes. */
export function toBase64(bytes) {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

/** {name, keyId, key, text} of a log vkey `origin+keyid+base64(0x01 || key)`, or throw. */
export async function parseLogVkey(text) {
  const first = text.indexOf("+");
  const second = text.indexOf("+", first + 1);
  if (first <= 0 || second < 0) throw new Error(`'${text}' is not name+keyid+base64`);
  const name = text.slice(0, first);
  const keyId = text.slice(first + 1, second);
  const raw = fromBase64(text.slice(second + 1), 33);
  if (/\s/u.test(name) || raw[0] !== NOTE_ED25519
      || bytesToHex(await noteKeyId(name, raw[0], raw.slice(1))) !== keyId) {
    throw new Error(`'${text}' is not an Ed25519 note key with that key ID`);
  }
  return { name, keyId, key: raw.slice(1), text };
}

/** {origin, size, root} of a service log checkpoint body: exactly three lines, or throw. */
export function readLogCheckpoint(body) {
  const lines = body.endsWith("\n") ? body.slice(0, -1).split("\n") : [];
  if (lines.length !== 3) throw new Error("a service log checkpoint has 3 lines");
  const [origin, size, root] = lines;
  if (!origin || /[\s+]/u.test(origin)) throw new Error(`'${origin}' is not a key name`);
  if (!/^(0|[1-9][0-9]{0,15})$/.test(size) || Number(size) > MAX_SIZE) {
    throw new Error(`the tree size '${size}' is not a decimal`);
  }
  return { origin, size: Number(size), root: fromBase64(root, 32) };
}

/** The checkpoint of a note the log key validly signs (every line of its name and key ID, at
 * least one), or null: fairness.service_log.open_log_checkpoint. */
export async function openLogCheckpoint(note, vkey) {
  try {
    const { text, signatures } = readNote(note);
    const checkpoint = readLogCheckpoint(text);
    const mine = signatures.filter((s) => s.name === vkey.name && s.keyId === vkey.keyId);
    if (checkpoint.origin !== vkey.name || !mine.length) return null;
    for (const signature of mine) {
      if (signature.payload.length !== 64 || !await verifyEd25519(bytesToHex(vkey.key),
        utf8(text), bytesToHex(signature.payload))) return null;
    }
    return checkpoint;
  } catch {
    return null;
  }
}

/** [root of the first m leaves, root of all n] that SUBPROOF(m, D[n], false) leads to, or
 * null when it is ill-shaped: fairness.service_log.subproof_roots. */
export async function subproofRoots(m, n, proof) {
  if (!(m > 0 && m < n) || proof.length > MAX_PROOF_HASHES) return null;
  return consistencyRoots(m, n, proof);
}

const same = (a, b) => bytesToHex(a) === bytesToHex(b);

/** {proven, reason} of two notes and a subproof (hash bytes): fairness.service_log.misbehaviour's
 * rule, the smaller note taken as the old one. */
export async function misbehaviour(oldNote, newNote, proof, vkey) {
  let old = await openLogCheckpoint(oldNote, vkey);
  let now = await openLogCheckpoint(newNote, vkey);
  if (old === null || now === null) return { proven: false, reason: "unsigned" };
  if (old.size > now.size) [old, now] = [now, old];
  if (old.size === now.size) {
    return same(old.root, now.root) ? { proven: false, reason: "same" }
      : { proven: true, reason: "same-size" };
  }
  if (old.size === 0) {
    return same(old.root, await sha256(new Uint8Array())) ? { proven: false, reason: "empty" }
      : { proven: true, reason: "empty-root" };
  }
  const roots = await subproofRoots(old.size, now.size, proof);
  if (roots === null || !same(roots[1], now.root)) return { proven: false, reason: "no-proof" };
  if (same(roots[0], old.root)) return { proven: false, reason: "prefix" };
  return { proven: true, reason: "not-a-prefix" };
}

/** The fork file, byte for byte fairness.service_log.format_fork's: keys sorted, no
 * whitespace, non-ASCII as itself, a final newline. */
export function formatFork(oldNote, newNote, proof) {
  const document = { new: newNote, old: oldNote, proof: proof.map(toBase64), type: FORK_TYPE };
  return `${JSON.stringify(document)}\n`;
}

// ------------------------------------------------------------------ what this browser keeps

function readState() {
  try {
    const state = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "{}");
    return state && typeof state === "object" && !Array.isArray(state) ? state : {};
  } catch {
    return {};
  }
}

function writeState(state) {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(state));
  } catch {
    // storage full or refused: the monitor simply starts again next visit
  }
}

function report(outcome) {
  document.documentElement.dataset.logMonitor = outcome;
}

// ------------------------------------------------------------------ one visit

class Silent extends Error {}

async function getJson(path) {
  let response;
  try {
    response = await fetch(path, { headers: { Accept: "application/json" } });
  } catch {
    throw new Silent("unreachable");
  }
  if (!response.ok) {
    const body = await response.json().catch(() => null);
    return { status: response.status, code: body?.error?.code ?? null, body: null };
  }
  return { status: response.status, code: null, body: await response.json() };
}

/** The consistency answer between two sizes: {proof, subproof} as bytes, or {refused: code}. */
async function consistency(old, size) {
  const answer = await getJson(`/api/v1/log/consistency?old=${old}&size=${size}`);
  if (answer.status === 404 || answer.status === 400) return { refused: answer.code };
  if (answer.body === null) throw new Silent(`HTTP ${answer.status}`);
  const hashes = (list) => (Array.isArray(list) ? list.map((h) => fromBase64(h, 32)) : null);
  return { proof: hashes(answer.body.proof) ?? [], subproof: hashes(answer.body.subproof) };
}

/** The subproof a fork file carries, from the answer: its own, else the proof when m is no
 * power of two (then SUBPROOF(m, D[n], false) is the consistency proof itself). */
function subproofOf(m, answer) {
  if (answer.subproof) return answer.subproof;
  return (m & (m - 1)) !== 0 ? answer.proof : [];
}

/** Compare the kept checkpoint with the served one; an alarm object, or null when they agree
 * (then `kept.note` may move forward). */
async function compare(kept, served, vkey) {
  const old = await openLogCheckpoint(kept.note, vkey);
  const now = await openLogCheckpoint(served, vkey);
  if (old === null || now === null) return { outcome: "unsigned" };
  if (old.size === now.size) {
    if (same(old.root, now.root)) return { outcome: "unchanged", note: served };
    return alarm(kept.note, served, [], vkey, old.size, now.size);
  }
  const [small, large] = old.size < now.size ? [old, now] : [now, old];
  const answer = await consistency(small.size, large.size);
  if (!answer.refused && await verifyConsistency(small.size, large.size, small.root, large.root,
    answer.proof)) {
    return now.size > old.size ? { outcome: "extended", note: served } : { outcome: "older" };
  }
  const proof = answer.refused ? [] : subproofOf(small.size, answer);
  return alarm(kept.note, served, proof, vkey, old.size, now.size);
}

async function alarm(oldNote, newNote, proof, vkey, oldSize, newSize) {
  const verdict = await misbehaviour(oldNote, newNote, proof, vkey);
  return { outcome: "alarm", alarm: { kind: verdict.proven ? "proven" : "unproven",
    old: oldSize, new: newSize, vkey: vkey.text, file: formatFork(oldNote, newNote, proof) } };
}

/** One visit's check; what it did (also in data-log-monitor). */
export async function checkServiceLog({ force = false } = {}) {
  const state = readState();
  const now = Date.now();
  if (!force && typeof state.checkedAt === "number" && now - state.checkedAt < CHECK_EVERY_MS
      && now >= state.checkedAt) {
    return "skipped";
  }
  if (!await ed25519Supported()) return "silent";
  const logs = state.logs && typeof state.logs === "object" ? state.logs : {};
  if (Object.values(logs).some((kept) => kept?.alarm)) return "alarm";
  const answer = await getJson("/api/v1/log");
  if (answer.body === null) return "silent";
  state.checkedAt = now;
  const { origin, vkey: vkeyText, checkpoint } = answer.body;
  const kept = logs[origin];
  state.logs = logs;
  if (kept && kept.vkey !== vkeyText) {
    // Another key cannot prove anything against the pinned one: kept as evidence all the same.
    kept.alarm = { kind: "key", old: null, new: null, vkey: kept.vkey,
      file: formatFork(kept.note ?? "", typeof checkpoint === "string" ? checkpoint : "", []) };
    writeState(state);
    return "alarm";
  }
  const vkey = await parseLogVkey(vkeyText);
  if (!kept) {
    const opened = typeof checkpoint === "string" ? await openLogCheckpoint(checkpoint, vkey) : null;
    logs[origin] = { vkey: vkeyText, note: opened ? checkpoint : null };
    writeState(state);
    return "pinned";
  }
  if (typeof checkpoint !== "string") {
    writeState(state);
    return "unchanged";
  }
  if (!kept.note) {
    if (await openLogCheckpoint(checkpoint, vkey)) kept.note = checkpoint;
    writeState(state);
    return "extended";
  }
  const result = await compare(kept, checkpoint, vkey);
  if (result.note) kept.note = result.note;
  if (result.alarm) kept.alarm = result.alarm;
  writeState(state);
  return result.outcome;
}

// ------------------------------------------------------------------ the alarm

const ALARM_TEXTS = { proven: "logAlarmProven", unproven: "logAlarmUnproven", key: "logAlarmKey" };

/** Show a kept alarm in #log-alarm: what happened, and the evidence to download. */
export function showAlarm(kept) {
  const region = document.getElementById("log-alarm");
  if (!region || !kept?.alarm) return;
  const { kind, old, new: size, vkey, file } = kept.alarm;
  const name = `yacht-daily-log-evidence-${old ?? "key"}-${size ?? "key"}.json`;
  const title = document.createElement("strong");
  title.textContent = t(kind === "proven" ? "logAlarmTitleProven" : "logAlarmTitle");
  const text = document.createElement("p");
  text.textContent = t(ALARM_TEXTS[kind], { old: old ?? "", new: size ?? "" });
  const link = document.createElement("a");
  link.className = "button";
  link.download = name;
  link.href = URL.createObjectURL(new Blob([file], { type: "application/json" }));
  link.textContent = t("logAlarmDownload");
  link.dataset.logEvidence = kind;
  const how = document.createElement("p");
  how.className = "small";
  how.append(t("logAlarmHow"), " ");
  const command = document.createElement("code");
  command.textContent = `python3 verify.py fork ${name} --log-key ${vkey}`;
  how.append(command);
  region.replaceChildren(title, text, link, how);
  region.dataset.logAlarm = kind;
  region.hidden = false;
}

function shownAlarm() {
  const logs = readState().logs ?? {};
  const alarmed = Object.values(logs).find((kept) => kept?.alarm);
  if (alarmed) showAlarm(alarmed);
  return Boolean(alarmed);
}

async function visit() {
  let outcome;
  try {
    outcome = await checkServiceLog();
  } catch {
    outcome = "silent"; // a malformed answer or an unreachable server says nothing
  }
  shownAlarm();
  report(outcome);
}

if (document.readyState === "complete") {
  setTimeout(visit, 0);
} else {
  window.addEventListener("load", () => setTimeout(visit, 0), { once: true });
}

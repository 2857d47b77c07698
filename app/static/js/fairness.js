// Yacht Daily — the browser's verifier: a third, independent implementation of FAIRNESS.md.
//
// An ES module without dependencies or build step; it runs in the browser and in Node >= 20.
// Every hash, HMAC and signature goes through WebCrypto (crypto.subtle), so every function that
// touches one is async. `verifyGame` returns one {name, ok, detail} per check, with the same
// names (and, when all holds, the same details) as fairness/audit/ and /verify.py.
// ok === null means the check could not be made (e.g. no Ed25519 in this WebCrypto): never a pass.

const subtle = globalThis.crypto.subtle;
const encoder = new TextEncoder();

export const GENESIS_PREV = "0".repeat(64);
export const EPOCH_TYPE = "yacht-daily/epoch/v1";
export const EPOCH_V2_TYPE = "yacht-daily/epoch/v2";
const EPOCH_TYPES = [EPOCH_TYPE, EPOCH_V2_TYPE];
export const REVEAL_TYPE = "yacht-daily/reveal/v1";
export const RECEIPT_TYPE = "yacht-daily/receipt/v1";
export const REVEAL_V2_TYPE = "yacht-daily/reveal/v2";
export const RECEIPT_V2_TYPE = "yacht-daily/receipt/v2";
export const CHAIN_MESSAGE = "yacht-daily/chain/v1";
export const DICE_DOMAIN = "yacht-daily/dice/v1";
const NO_ED25519 = "NOT checked: this browser's WebCrypto has no Ed25519";
const MAX_LISTED = 5;
const MAX_EPOCH_DAYS = 100000;
// The dealing (FAIRNESS.md, "The dice stream"): which slot of five dice a game's roll takes.
// PER_TURN: roll r of turn t takes slot 3t + r; SEQUENTIAL: the game's n-th roll takes slot n.
export const PER_TURN = "per-turn";
export const SEQUENTIAL = "sequential";
export const DEALINGS = [PER_TURN, SEQUENTIAL];
export const ROLLS_PER_TURN = 3;
export const DICE_PER_ROLL = 5;

// ------------------------------------------------------------------ bytes, hex, hashes

/** Lowercase hex of a byte array. */
export function bytesToHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Bytes of a hex string (throws on anything but an even number of hex digits). */
export function hexToBytes(hex) {
  if (typeof hex !== "string" || hex.length % 2 || /[^0-9a-fA-F]/.test(hex)) {
    throw new TypeError(`not a hex string: ${hex}`);
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** True when `value` is exactly `digits` lowercase hex digits. */
export function isHex(value, digits) {
  return typeof value === "string" && value.length === digits && /^[0-9a-f]*$/.test(value);
}

/** The byte arrays joined into one. */
function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** SHA-256 of bytes (or of a string's UTF-8), as bytes. */
export async function sha256(data) {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  return new Uint8Array(await subtle.digest("SHA-256", bytes));
}

/** SHA-256 as lowercase hex. */
export async function sha256Hex(data) {
  return bytesToHex(await sha256(data));
}

/** HMAC-SHA256(key, message) as bytes. */
export async function hmacSha256(key, message) {
  const cryptoKey = await subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const data = typeof message === "string" ? encoder.encode(message) : message;
  return new Uint8Array(await subtle.sign("HMAC", cryptoKey, data));
}

// ------------------------------------------------------------------ canonical JSON

/** Order two strings by Unicode code point (not UTF-16 unit), as canonical JSON sorts keys. */
function compareCodePoints(a, b) {
  const left = Array.from(a, (c) => c.codePointAt(0));
  const right = Array.from(b, (c) => c.codePointAt(0));
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    if (left[i] !== right[i]) return left[i] - right[i];
  }
  return left.length - right.length;
}

/** Canonical JSON text: keys sorted by code point, no whitespace, integers only. */
export function canonicalJson(value) {
  if (typeof value === "string" && !value.isWellFormed()) {
    throw new TypeError("canonical JSON holds no lone surrogates");
  }
  if (value === null || typeof value === "boolean" || typeof value === "string") {
    return JSON.stringify(value);
  }
  if (typeof value === "number") {
    if (!Number.isInteger(value)) throw new TypeError("canonical JSON holds no floats");
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return "[" + value.map(canonicalJson).join(",") + "]";
  if (typeof value === "object") {
    const keys = Object.keys(value).sort(compareCodePoints);
    if (!keys.every((k) => k.isWellFormed())) {
      throw new TypeError("canonical JSON holds no lone surrogates");
    }
    return "{" + keys.map((k) => JSON.stringify(k) + ":" + canonicalJson(value[k])).join(",") + "}";
  }
  throw new TypeError(`canonical JSON cannot encode ${typeof value}`);
}

/** Canonical JSON as UTF-8 bytes. */
export function canonicalBytes(value) {
  return encoder.encode(canonicalJson(value));
}

/** Canonical bytes, or null when the value has none (a float, say). */
function safeCanonicalBytes(value) {
  try {
    return canonicalBytes(value);
  } catch {
    return null;
  }
}

/** The object without its signature. */
export function unsigned(obj) {
  const out = {};
  for (const [key, value] of Object.entries(obj)) if (key !== "sig") out[key] = value;
  return out;
}

/** The bytes a published object's Ed25519 signature covers. */
export function signedBytes(obj) {
  return canonicalBytes(unsigned(obj));
}

/** The hex SHA-256 of a ledger entry's canonical JSON (sig included): the next `prev`. */
export async function entryHash(entry) {
  return sha256Hex(canonicalBytes(entry));
}

/** The hex SHA-256 of a transcript's canonical JSON. */
export async function transcriptHash(transcript) {
  return sha256Hex(canonicalBytes(transcript));
}

// ------------------------------------------------------------------ seed chain, dice stream

/** One step down the chain: s(i-1) = HMAC-SHA256(key = s(i), "yacht-daily/chain/v1"). */
export async function previousSeed(seed) {
  return hmacSha256(typeof seed === "string" ? hexToBytes(seed) : seed, CHAIN_MESSAGE);
}

/** `steps` steps down the chain. */
export async function hashDown(seed, steps) {
  let current = typeof seed === "string" ? hexToBytes(seed) : seed;
  for (let i = 0; i < steps; i++) current = await previousSeed(current);
  return current;
}

/** The dice one stream block yields: bytes below 252, each mapped to b % 6 + 1. */
export function diceFromBlock(block) {
  return Array.from(block).filter((b) => b < 252).map((b) => (b % 6) + 1);
}

/** The HMAC message of stream block `index`. */
export function blockMessage(date, ruleset, index) {
  return `${DICE_DOMAIN}|${date}|${ruleset}|${index}`;
}

/** The first `count` dice of the (seed, date, ruleset) stream. */
export async function diceStream(seedHex, date, ruleset, count) {
  const seed = hexToBytes(seedHex);
  const dice = [];
  for (let block = 0; dice.length < count; block++) {
    dice.push(...diceFromBlock(await hmacSha256(seed, blockMessage(date, ruleset, block))));
  }
  return dice.slice(0, count);
}

/** `dealing` when it names a dealing (per-turn, sequential); throws otherwise. */
export function validateDealing(dealing) {
  if (!DEALINGS.includes(dealing)) {
    throw new TypeError(`dealing must be one of ${DEALINGS.join(", ")}, `
      + `got ${JSON.stringify(dealing)}`);
  }
  return dealing;
}

/**
 * The slot a roll takes: ROLLS_PER_TURN * turn + rollInTurn per turn (both 0-based: turn is
 * the number of boxes already filled), rollsTaken (the rolls the game took before it)
 * sequentially. Slot n is dice 5n..5n+4 of the stream.
 */
export function rollSlot(dealing, turn, rollInTurn, rollsTaken) {
  return validateDealing(dealing) === PER_TURN ? ROLLS_PER_TURN * turn + rollInTurn : rollsTaken;
}

/** How many slots a game of `boxCount` boxes can take under either dealing (3 per box). */
function slotsOfGame(boxCount) {
  return ROLLS_PER_TURN * boxCount;
}

/** The stream's dice cut into slots of five: slot n is dice 5n..5n+4. */
function slotsOf(dice, count) {
  return Array.from({ length: count },
    (_, n) => dice.slice(DICE_PER_ROLL * n, DICE_PER_ROLL * n + DICE_PER_ROLL));
}

/**
 * Every slot a game of `ruleset` can take under either dealing (3 per box): element n is
 * slot n, dice 5n..5n+4. `replay` picks each roll's slot by the dealing.
 */
export async function streamRolls(seedHex, date, ruleset) {
  const count = slotsOfGame(SHEETS[ruleset].boxes.length);
  return slotsOf(await diceStream(seedHex, date, ruleset, DICE_PER_ROLL * count), count);
}

// ------------------------------------------------------------------ the sheets' rules

export const UPPER = ["ones", "twos", "threes", "fours", "fives", "sixes"];
const YAHTZEE_LOWER = [
  "three-of-a-kind", "four-of-a-kind", "full-house", "small-straight", "large-straight",
  "yahtzee", "chance",
];
const YATZY_LOWER = [
  "one-pair", "two-pairs", "three-of-a-kind", "four-of-a-kind", "small-straight",
  "large-straight", "full-house", "chance", "yatzy",
];
const GENERALA_LOWER = ["escalera", "full", "poker", "generala", "doble-generala"];

/** The box a column box repeats (`ones@2` → `ones`). */
export function kindOf(box) {
  return box.split("@")[0];
}

/** What a box's column multiplies its points by (`@k` → k; 1 without a column). */
export function multiplier(box) {
  return box.includes("@") ? Number(box.split("@")[1]) : 1;
}

/**
 * A sheet: its boxes in order and its sheet-level rules. A sheet of several columns has the
 * boxes `<box>@1` (worth ×1), `<box>@2` (×2)… column by column.
 */
function sheet(lower, upperBonus = 0, kindBox = null, extra = 0, joker = false,
  { columns = 1, firstRollBonus = {}, secondFive = null } = {}) {
  const kinds = [...UPPER, ...lower];
  const boxes = columns === 1 ? kinds
    : Array.from({ length: columns }, (_, k) => kinds.map((b) => `${b}@${k + 1}`)).flat();
  return {
    boxes, lower: boxes.filter((b) => lower.includes(kindOf(b))), upperBonus, kindBox,
    kindBoxes: boxes.filter((b) => kindOf(b) === kindBox), extra, joker, columns,
    firstRollBonus, secondFive,
  };
}

export const SHEETS = {
  yacht: sheet(["full-house", "four-of-a-kind", "little-straight", "big-straight", "choice",
    "yacht"]),
  "yacht-bonus": sheet(["choice", "four-of-a-kind", "full-house", "small-straight",
    "large-straight", "yacht"], 35),
  yahtzee: sheet(YAHTZEE_LOWER, 35, "yahtzee", 100, true),
  "yahtzee-no-joker": sheet(YAHTZEE_LOWER, 35, "yahtzee", 100, false),
  "yahtzee-no-bonus": sheet(YAHTZEE_LOWER, 35, "yahtzee", 0, true),
  "yahtzee-no-joker-no-bonus": sheet(YAHTZEE_LOWER, 35, "yahtzee", 0, false),
  yatzy: sheet(YATZY_LOWER, 50),
  generala: sheet(GENERALA_LOWER, 0, "generala", 0, false, {
    firstRollBonus: { escalera: 5, full: 5, poker: 5, generala: 50 },
    secondFive: "doble-generala",
  }),
  "yahtzee-triple": sheet(YAHTZEE_LOWER, 35, "yahtzee", 100, true, { columns: 3 }),
};
export const JOKER_POINTS = { "full-house": 25, "small-straight": 30, "large-straight": 40 };

/** How many dice show each face. */
function counts(dice) {
  const byFace = new Map();
  for (const d of dice) byFace.set(d, (byFace.get(d) || 0) + 1);
  return byFace;
}

/** Scandinavian Yatzy's lower boxes: only the dice that make the combination count. */
function yatzyPoints(box, dice) {
  const byFace = counts(dice);
  const pairs = [...byFace].filter(([, n]) => n >= 2).map(([f]) => f).sort((a, b) => a - b);
  const most = Math.max(...byFace.values());
  const face = [...byFace].find(([, n]) => n === most)[0];
  const sorted = [...dice].sort((a, b) => a - b).join("");
  const total = dice.reduce((a, b) => a + b, 0);
  const points = {
    "one-pair": pairs.length ? 2 * pairs[pairs.length - 1] : 0,
    "two-pairs": pairs.length === 2 ? 2 * (pairs[0] + pairs[1]) : 0,
    "three-of-a-kind": most >= 3 ? 3 * face : 0,
    "four-of-a-kind": most >= 4 ? 4 * face : 0,
    "small-straight": sorted === "12345" ? 15 : 0,
    "large-straight": sorted === "23456" ? 20 : 0,
    "full-house": [...byFace.values()].sort().join("") === "23" ? total : 0,
    chance: total,
    yatzy: most === 5 ? 50 : 0,
  };
  if (!Object.hasOwn(points, box)) throw new RangeError(`${box} is not a box`);
  return points[box];
}

/** Generala's lower boxes, fixed values (not made on the first roll). */
function generalaPoints(box, dice) {
  const shape = [...counts(dice).values()].sort().join("");
  const sorted = [...dice].sort((a, b) => a - b).join("");
  const made = {
    escalera: sorted === "12345" || sorted === "23456", full: shape === "23",
    poker: shape === "14" || shape === "5", generala: shape === "5", "doble-generala": shape === "5",
  };
  const value = { escalera: 20, full: 30, poker: 40, generala: 50, "doble-generala": 100 };
  if (!Object.hasOwn(made, box)) throw new RangeError(`${box} is not a box`);
  return made[box] ? value[box] : 0;
}

/**
 * What five dice are worth in `box` of `ruleset`, before the Joker rule, the first-roll bonus
 * and the doble generala's condition.
 */
export function boxPoints(ruleset, box, dice) {
  if (box.includes("@")) return multiplier(box) * boxPoints("yahtzee", kindOf(box), dice);
  const byFace = counts(dice);
  const most = Math.max(...byFace.values());
  const total = dice.reduce((a, b) => a + b, 0);
  const sorted = [...dice].sort((a, b) => a - b).join("");
  const faces = new Set(dice);
  const yachtFamily = ruleset === "yacht" || ruleset === "yacht-bonus";
  const upper = UPPER.indexOf(box);
  if (upper >= 0) return (upper + 1) * (byFace.get(upper + 1) || 0);
  if (ruleset === "yatzy") return yatzyPoints(box, dice);
  if (ruleset === "generala") return generalaPoints(box, dice);
  switch (box) {
    case "choice":
    case "chance":
      return total;
    case "three-of-a-kind":
      return most >= 3 ? total : 0;
    case "four-of-a-kind": {
      if (most < 4) return 0;
      if (ruleset !== "yacht") return total;
      const face = [...byFace].find(([, n]) => n === most)[0];
      return 4 * face;
    }
    case "full-house": {
      const isFull = [...byFace.values()].sort().join("") === "23";
      return isFull ? (yachtFamily ? total : 25) : 0;
    }
    case "little-straight":
      return sorted === "12345" ? 30 : 0;
    case "big-straight":
      return sorted === "23456" ? 30 : 0;
    case "small-straight": {
      const run = ["1234", "2345", "3456"].some((r) => [...r].every((f) => faces.has(+f)));
      return run ? (yachtFamily ? 15 : 30) : 0;
    }
    case "large-straight": {
      const distinct = [...faces].sort().join("");
      return distinct === "12345" || distinct === "23456" ? (yachtFamily ? 30 : 40) : 0;
    }
    case "yacht":
    case "yahtzee":
      return faces.size === 1 ? 50 : 0;
    default:
      throw new RangeError(`${box} is not a box`);
  }
}

/**
 * True when the forced Joker rule places these dice: a further five of a kind, every box of
 * its kind (one per column) being filled.
 */
export function jokerApplies(ruleset, dice, boxes) {
  const rules = SHEETS[ruleset];
  return rules.joker && new Set(dice).size === 1
    && rules.kindBoxes.every((box) => Object.hasOwn(boxes, box));
}

/** Every five-of-a-kind box of the sheet holds its points (not 0). */
function kindBoxesHoldPoints(rules, boxes) {
  return rules.kindBoxes.length > 0 && rules.kindBoxes.every((box) => boxes[box] > 0);
}

/** The free boxes these dice may go in now, narrowed by the Joker rule where it applies. */
export function allowedBoxes(ruleset, dice, boxes) {
  const rules = SHEETS[ruleset];
  const free = rules.boxes.filter((box) => !Object.hasOwn(boxes, box));
  if (!jokerApplies(ruleset, dice, boxes)) return free;
  const upperKind = UPPER[dice[0] - 1];
  const upper = free.filter((box) => kindOf(box) === upperKind);
  if (upper.length) return upper;
  const lower = free.filter((box) => rules.lower.includes(box));
  return lower.length ? lower : free;
}

/**
 * The points of `dice` in `box` given the filled `boxes`: Joker, first-roll bonus (Generala's
 * servida, when `firstRoll`) and doble generala included.
 */
export function score(ruleset, box, dice, boxes = {}, firstRoll = false) {
  const rules = SHEETS[ruleset];
  if (Object.hasOwn(JOKER_POINTS, kindOf(box)) && jokerApplies(ruleset, dice, boxes)) {
    return JOKER_POINTS[kindOf(box)] * multiplier(box);
  }
  if (box === rules.secondFive && !kindBoxesHoldPoints(rules, boxes)) return 0;
  const worth = boxPoints(ruleset, box, dice);
  return firstRoll && worth ? worth + (rules.firstRollBonus[box] || 0) : worth;
}

/**
 * The extra bonus scoring `dice` in `box` now adds: a further five of a kind while every
 * five-of-a-kind box holds its points, times the multiplier of `box`'s column.
 */
export function extraBonus(ruleset, dice, boxes = {}, box = null) {
  const rules = SHEETS[ruleset];
  const five = new Set(dice).size === 1 && rules.extra && kindBoxesHoldPoints(rules, boxes);
  return five ? rules.extra * (box ? multiplier(box) : 1) : 0;
}

/**
 * The sheet's breakdown: upper, upper_bonus, lower, extra_bonus, total. Column k's upper bonus
 * is the sheet's bonus × k once its upper boxes total 63 × k.
 */
export function totals(ruleset, boxes, extra = 0) {
  const rules = SHEETS[ruleset];
  let upper = 0;
  let lower = 0;
  const byColumn = new Map();
  for (const [box, points] of Object.entries(boxes)) {
    if (UPPER.includes(kindOf(box))) {
      upper += points;
      byColumn.set(multiplier(box), (byColumn.get(multiplier(box)) || 0) + points);
    } else lower += points;
  }
  let bonus = 0;
  for (const [column, points] of byColumn) {
    if (points >= 63 * column) bonus += rules.upperBonus * column;
  }
  return { upper, upper_bonus: bonus, lower, extra_bonus: extra,
    total: upper + bonus + lower + extra };
}

// ------------------------------------------------------------------ Merkle (RFC 9162)

/** Leaf hash: SHA-256(0x00 || data). */
export async function leafHash(data) {
  return sha256(concat(new Uint8Array([0]), data));
}

/** Node hash: SHA-256(0x01 || left || right). */
export async function nodeHash(left, right) {
  return sha256(concat(new Uint8Array([1]), left, right));
}

/** The root of the tree over these leaf hashes (the empty tree: SHA-256 of nothing). */
export async function merkleRoot(leaves) {
  if (!leaves.length) return sha256(new Uint8Array());
  let level = [...leaves];
  while (level.length > 1) {
    const next = [];
    for (let i = 0; i + 1 < level.length; i += 2) next.push(await nodeHash(level[i], level[i + 1]));
    if (level.length % 2) next.push(level[level.length - 1]);
    level = next;
  }
  return level[0];
}

/** The root an inclusion proof leads to (RFC 9162 2.1.3.2), or null if it is ill-shaped. */
export async function inclusionRoot(leaf, index, size, path) {
  if (!(index >= 0 && index < size)) return null;
  let fn = index;
  let sn = size - 1;
  let result = leaf;
  for (const sibling of path) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      result = await nodeHash(sibling, result);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      result = await nodeHash(result, sibling);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? result : null;
}

/** True when the proof leads `leaf` to `rootHex`. */
export async function verifyInclusion(leaf, index, size, pathHex, rootHex) {
  const root = await inclusionRoot(leaf, index, size, pathHex.map(hexToBytes));
  return root !== null && bytesToHex(root) === rootHex;
}

// ------------------------------------------------------------------ signatures

let ed25519Support = null;

/** True when this WebCrypto verifies Ed25519. */
export async function ed25519Supported() {
  if (ed25519Support === null) {
    try {
      await subtle.importKey("raw", new Uint8Array(32), { name: "Ed25519" }, false, ["verify"]);
      ed25519Support = true;
    } catch {
      ed25519Support = false;
    }
  }
  return ed25519Support;
}

/** True when `sigHex` is a valid Ed25519 signature of `message` by `publicKeyHex`. */
export async function verifyEd25519(publicKeyHex, message, sigHex) {
  try {
    const key = await subtle.importKey("raw", hexToBytes(publicKeyHex), { name: "Ed25519" },
      false, ["verify"]);
    return await subtle.verify({ name: "Ed25519" }, key, hexToBytes(sigHex), message);
  } catch {
    return false;
  }
}

/** True when `obj.sig` is a valid Ed25519 signature of its unsigned bytes by `key`. */
async function signatureOk(key, obj) {
  const message = safeCanonicalBytes(unsigned(obj));
  if (message === null || !isHex(obj.sig, 128) || !isHex(key, 64)) return false;
  return verifyEd25519(key, message, obj.sig);
}

// ------------------------------------------------------------------ formats

const FIELDS = {
  [EPOCH_TYPE]: { type: "str", seq: "int", prev: 64, epoch: "int", start: "date", length: "int",
    anchor: 64, public_key: 64, rulesets: "list", published_at: "str", sig: 128 },
  [REVEAL_TYPE]: { type: "str", seq: "int", prev: 64, epoch: "int", date: "date", day: "int",
    seed: 64, games: "dict", roots: "dict", revealed_at: "str", sig: 128 },
  [RECEIPT_TYPE]: { type: "str", game: "str", epoch: "int", date: "date", ruleset: "str",
    player: "str", transcript_sha256: 64, total: "int", sig: 128 },
};
// A v2 epoch: a v1 epoch plus the dealing of its days (always per-turn).
FIELDS[EPOCH_V2_TYPE] = { ...FIELDS[EPOCH_TYPE], dealing: "str" };
FIELDS[REVEAL_V2_TYPE] = { ...FIELDS[REVEAL_TYPE], logs: "dict" };
FIELDS[RECEIPT_V2_TYPE] = { ...FIELDS[RECEIPT_TYPE], index: "int", finished_at: "time" };
const REVEAL_TYPES = [REVEAL_TYPE, REVEAL_V2_TYPE];

/** True when `value` is a YYYY-MM-DDTHH:MM:SSZ time on a calendar date. */
function isTime(value) {
  return typeof value === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(value)
    && isDate(value.slice(0, 10));
}

/** True for a JSON object (not null, not an array). */
function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True when `value` is a YYYY-MM-DD calendar date. */
export function isDate(value) {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(value + "T00:00:00Z");
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** The YYYY-MM-DD date `days` after `date`. */
function addDays(date, days) {
  const d = new Date(date + "T00:00:00Z");
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const KIND_CHECKS = {
  str: (v) => typeof v === "string",
  int: (v) => Number.isInteger(v),
  list: (v) => Array.isArray(v),
  dict: isObject,
  date: isDate,
  time: (v) => isTime(v),
  64: (v) => isHex(v, 64),
  128: (v) => isHex(v, 128),
};
const KIND_NAMES = { date: "a YYYY-MM-DD date", time: "a YYYY-MM-DDTHH:MM:SSZ time", 64: "64 hex digits", 128: "128 hex digits" };

/** What is wrong with an object's fields for its kind (empty: nothing). */
export function formatProblems(obj, kind) {
  if (!isObject(obj)) return ["not a JSON object"];
  const fields = FIELDS[kind];
  const problems = [];
  const missing = Object.keys(fields).filter((k) => !Object.hasOwn(obj, k));
  const extra = Object.keys(obj).filter((k) => !Object.hasOwn(fields, k)).sort();
  if (missing.length) problems.push("missing " + missing.join(", "));
  if (extra.length) problems.push("unexpected " + extra.join(", "));
  for (const [key, want] of Object.entries(fields)) {
    if (Object.hasOwn(obj, key) && !KIND_CHECKS[want](obj[key])) {
      problems.push(`${key} ${pythonRepr(obj[key])} is not ${KIND_NAMES[want] || want}`);
    }
  }
  if (problems.length || kind === RECEIPT_TYPE || kind === RECEIPT_V2_TYPE
    || MATCH_TYPES.includes(kind)) return problems;
  if (EPOCH_TYPES.includes(kind)) {
    if (!(obj.length >= 1 && obj.length <= MAX_EPOCH_DAYS)) {
      problems.push(`length ${obj.length} is not 1..${MAX_EPOCH_DAYS}`);
    }
    if (obj.rulesets.some((r) => !Object.hasOwn(SHEETS, r))) {
      problems.push(`rulesets ${pythonRepr(obj.rulesets)} names an unknown sheet`);
    }
    if (kind === EPOCH_V2_TYPE && obj.dealing !== PER_TURN) {
      problems.push(`dealing ${pythonRepr(obj.dealing)} is not ${pythonRepr(PER_TURN)}`);
    }
  } else {
    const badOnes = (values, good) => Object.fromEntries(Object.entries(values)
      .filter(([, v]) => !good(v)));
    const badGames = badOnes(obj.games, (v) => Number.isInteger(v) && v >= 0);
    if (Object.keys(badGames).length) problems.push(`games ${pythonRepr(badGames)} is not a count`);
    for (const key of kind === REVEAL_V2_TYPE ? ["roots", "logs"] : ["roots"]) {
      const bad = badOnes(obj[key], (v) => isHex(v, 64));
      if (Object.keys(bad).length) problems.push(`${key} ${pythonRepr(bad)} is not 64 hex digits`);
    }
  }
  return problems;
}

// ------------------------------------------------------------------ reporting helpers

/** A hex value's first 12 digits. */
export function short(text) {
  const s = String(text);
  return s.length > 12 ? s.slice(0, 12) + "…" : s;
}

/** 'a = b' (shortened) when equal, 'a ≠ b' in full when not. */
function compared(left, right) {
  return left === right ? `${short(left)} = ${short(right)}` : `${left} ≠ ${right}`;
}

/** Dice as [3,1,6,6,2], holds as [T,F,F,T,F]. */
export function show(values) {
  return "[" + values.map((v) => (v === true ? "T" : v === false ? "F" : String(v))).join(",")
    + "]";
}

/** A string as Python's repr writes it: single quotes unless it holds ' and no ". */
function pythonStringRepr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  const escapes = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", [quote]: `\\${quote}` };
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0);
    if (Object.hasOwn(escapes, char)) {
      out += escapes[char];
    } else if (char !== " " && /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\p{Zs}]/u.test(char)) {
      out += code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}`
        : code <= 0xffff ? `\\u${code.toString(16).padStart(4, "0")}`
          : `\\U${code.toString(16).padStart(8, "0")}`;
    } else {
      out += char;
    }
  }
  return quote + out + quote;
}

/**
 * A JSON value as Python's repr writes it (None, True, 'text', [1, 2], {'k': 1}), so that a
 * detail quoting a value read from the transcript is the core's byte for byte. A number JSON
 * parsing made integral (4.0) is written as the integer it now is.
 */
function pythonRepr(value) {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "string") return pythonStringRepr(value);
  if (typeof value === "number") {
    return Number.isSafeInteger(value) ? String(value)
      : String(value).replace(/e([+-])(\d)$/, "e$10$2");
  }
  if (Array.isArray(value)) return "[" + value.map(pythonRepr).join(", ") + "]";
  return "{" + Object.entries(value).map(([k, v]) => `${pythonStringRepr(k)}: ${pythonRepr(v)}`)
    .join(", ") + "}";
}

/** One check over many items: holds with `success`, or lists the first failures. */
function aggregate(name, failures, success) {
  if (!failures.length) return { name, ok: true, detail: success };
  const more = failures.length > MAX_LISTED ? `; and ${failures.length - MAX_LISTED} more` : "";
  return { name, ok: false, detail: failures.slice(0, MAX_LISTED).join("; ") + more };
}

/** An object's keys in code point order. */
function sortedKeys(obj) {
  return Object.keys(obj).sort(compareCodePoints);
}

// ------------------------------------------------------------------ the ledger

/** True when `entry` is an epoch entry of either version. */
function isEpochEntry(entry) {
  return isObject(entry) && EPOCH_TYPES.includes(entry.type);
}

/** The dealing of a well-formed epoch entry's days: its `dealing` (v2), else sequential. */
export function epochDealing(entry) {
  return entry.type === EPOCH_V2_TYPE ? entry.dealing : SEQUENTIAL;
}

/** Index the well-formed entries: epochs by number, reveals by date, as [position, entry]. */
function readLedger(entries) {
  const epochs = new Map();
  const reveals = new Map();
  const wellFormedReveals = [];
  entries.forEach((entry, i) => {
    const kind = isObject(entry) ? entry.type : undefined;
    if ((!EPOCH_TYPES.includes(kind) && !REVEAL_TYPES.includes(kind))
        || formatProblems(entry, kind).length) {
      return;
    }
    if (EPOCH_TYPES.includes(kind)) {
      if (!epochs.has(entry.epoch)) epochs.set(entry.epoch, [i, entry]);
    } else {
      if (!reveals.has(entry.date)) reveals.set(entry.date, [i, entry]);
      wellFormedReveals.push([i, entry]);
    }
  });
  return { entries, epochs, reveals, wellFormedReveals };
}

/** Check the ledger: format, numbering, hash links, signatures, dates and seed chains. */
export async function checkLedger(entries) {
  const view = readLedger(entries);
  const checks = [];
  const n = entries.length;

  const formatFailures = [];
  entries.forEach((entry, i) => {
    const kind = isObject(entry) ? entry.type : undefined;
    const problems = EPOCH_TYPES.includes(kind) || REVEAL_TYPES.includes(kind)
      ? formatProblems(entry, kind) : [`unknown type ${pythonRepr(kind)}`];
    for (const problem of problems) formatFailures.push(`entry ${i}: ${problem}`);
  });
  checks.push(aggregate("ledger format", formatFailures,
    `${n} entries, each an epoch or reveal entry with exactly its fields`));

  const seqFailures = [];
  entries.forEach((entry, i) => {
    const seq = isObject(entry) ? entry.seq : undefined;
    if (seq !== i) {
      seqFailures.push(`entry ${i}: seq ${pythonRepr(seq)} ≠ position ${i}`);
    }
  });
  checks.push(aggregate("ledger sequence", seqFailures, `seq 0..${n - 1} in order, no gap`));

  const linkFailures = [];
  let expected = GENESIS_PREV;
  for (let i = 0; i < n; i++) {
    const entry = entries[i];
    const prev = isObject(entry) ? entry.prev : undefined;
    const source = i === 0 ? "the genesis" : `SHA-256 of entry ${i - 1}`;
    if (expected === null) {
      linkFailures.push(`entry ${i}: entry ${i - 1} has no canonical JSON`);
    } else if (prev !== expected) {
      linkFailures.push(`entry ${i}: prev ${prev} ≠ ${source} ${expected}`);
    }
    const encoded = safeCanonicalBytes(entry);
    expected = encoded === null ? null : await sha256Hex(encoded);
  }
  checks.push(aggregate("ledger links", linkFailures,
    `${n} entries, each prev = SHA-256 of the entry before it, from the genesis 000…0`));

  if (!(await ed25519Supported())) {
    checks.push({ name: "ledger signatures", ok: null, detail: NO_ED25519 });
  } else {
    const sigFailures = [];
    for (let i = 0; i < n; i++) {
      const entry = entries[i];
      const owner = !isObject(entry) ? null
        : isEpochEntry(entry) ? entry : (view.epochs.get(entry.epoch) || [])[1];
      if (!owner) {
        sigFailures.push(`entry ${i}: no published key for epoch ${entry?.epoch}`);
      } else if (!(await signatureOk(owner.public_key, entry))) {
        sigFailures.push(`entry ${i}: sig ${short(entry.sig)} is not a valid Ed25519 signature `
          + `by ${short(owner.public_key)} of its ${entry.type} fields`);
      }
    }
    checks.push(aggregate("ledger signatures", sigFailures,
      `${n} entries, each a valid Ed25519 signature by its epoch's published key`));
  }
  checks.push(...(await checkReveals(view)));
  return checks;
}

/** Each reveal's date, and its seed's chain down to the anchor and to the previous day. */
async function checkReveals(view) {
  const failures = [];
  const byDay = new Map();
  const dated = new Map();
  for (const [i, entry] of view.wellFormedReveals) {
    const key = `${entry.epoch}/${entry.day}`;
    if (!byDay.has(key)) byDay.set(key, [i, entry]);
    const [epochAt, epoch] = view.epochs.get(entry.epoch) || [];
    if (!epoch || epochAt > i) {
      failures.push(`entry ${i}: epoch ${entry.epoch} is not published before it`);
      continue;
    }
    const problem = dateProblem(entry, epoch);
    if (problem) failures.push(`entry ${i}: ${problem}`);
    if (dated.has(key)) {
      failures.push(`entry ${i}: epoch ${entry.epoch} day ${entry.day} already revealed by `
        + `entry ${dated.get(key)}`);
    } else {
      dated.set(key, i);
    }
  }
  const count = view.wellFormedReveals.length;
  const checks = [aggregate("reveal dates", failures, `${count} reveals, each dated epoch start `
    + "+ day − 1 within its epoch, one per day")];
  const ordered = [...byDay.values()].sort((a, b) => a[1].epoch - b[1].epoch
    || a[1].day - b[1].day);
  const chains = [];
  const successions = [];
  const proven = new Map();
  for (const [i, entry] of ordered) {
    const epoch = (view.epochs.get(entry.epoch) || [])[1];
    const problem = await chainProblem(entry, epoch, proven);
    if (problem) chains.push(`entry ${i}: ${problem}`);
    let previous;
    let source;
    if (entry.day === 1) {
      previous = epoch ? epoch.anchor : null;
      source = `epoch ${entry.epoch}'s anchor`;
    } else if (byDay.has(`${entry.epoch}/${entry.day - 1}`)) {
      const [j, before] = byDay.get(`${entry.epoch}/${entry.day - 1}`);
      previous = before.seed;
      source = `day ${entry.day - 1}'s seed (entry ${j})`;
    } else {
      successions.push(`entry ${i}: day ${entry.day - 1} of epoch ${entry.epoch} is not revealed`);
      continue;
    }
    const stepped = bytesToHex(await previousSeed(entry.seed));
    if (stepped !== previous) {
      successions.push(`entry ${i}: seed ${short(entry.seed)} steps down to ${stepped} ≠ `
        + `${source} ${previous ?? "None"}`);
    }
  }
  checks.push(aggregate("seed chains", chains,
    `${ordered.length} reveals, each seed hashes down \`day\` steps to its epoch's anchor`));
  checks.push(aggregate("seed successions", successions,
    `${ordered.length} reveals, each seed one step above the previous day's`));
  return checks;
}

/** Why a reveal's day, date or sheets do not fit its epoch (null: they do). */
function dateProblem(entry, epoch) {
  if (!(entry.day >= 1 && entry.day <= epoch.length)) {
    return `day ${entry.day} is not 1..${epoch.length} of epoch ${epoch.epoch}`;
  }
  const expected = addDays(epoch.start, entry.day - 1);
  if (entry.date !== expected) {
    return `date '${entry.date}' ≠ epoch ${epoch.epoch} start ${epoch.start} + day ${entry.day} `
      + `− 1 = ${expected}`;
  }
  const sheets = [...epoch.rulesets].sort(compareCodePoints).join(",");
  for (const key of entry.type === REVEAL_V2_TYPE ? ["games", "roots", "logs"]
    : ["games", "roots"]) {
    if (sortedKeys(entry[key]).join(",") !== sheets) {
      return `${key} covers ${sortedKeys(entry[key]).join(", ")}, not the epoch's sheets ${sheets}`;
    }
  }
  return null;
}

/** Why a reveal's seed does not hash down `day` steps to its anchor (null: it does). */
async function chainProblem(entry, epoch, proven) {
  if (!epoch || !(entry.day >= 1 && entry.day <= epoch.length)) {
    return `day ${entry.day} has no published epoch ${entry.epoch} to chain to`;
  }
  let seed = hexToBytes(entry.seed);
  let reached = null;
  for (let steps = entry.day; steps > 0; steps--) {
    const known = proven.get(`${entry.epoch}/${steps}`);
    if (known !== undefined) {
      reached = known === bytesToHex(seed);
      break;
    }
    seed = await previousSeed(seed);
  }
  if (reached === null) reached = bytesToHex(seed) === epoch.anchor;
  if (!reached) {
    return `seed ${entry.seed} hashed down ${entry.day} steps does not give epoch `
      + `${entry.epoch}'s anchor ${epoch.anchor}`;
  }
  proven.set(`${entry.epoch}/${entry.day}`, entry.seed);
  return null;
}

// ------------------------------------------------------------------ replay

/** True when `obj` has exactly these keys (given sorted). */
function sameKeys(obj, keys) {
  const own = Object.keys(obj).sort();
  return own.length === keys.length && own.every((k, i) => k === keys[i]);
}

/** Why this roll entry is not a legal roll now (null: it is). */
function rollProblem(state, entry) {
  const hold = entry.hold;
  if (!sameKeys(entry, ["action", "dice", "hold"])) {
    return "a roll entry has exactly the keys action, dice, hold; got "
      + pythonRepr(sortedKeys(entry));
  }
  if (!Array.isArray(hold) || hold.length !== 5 || hold.some((h) => typeof h !== "boolean")) {
    return `hold ${pythonRepr(hold)} is not five true/false values`;
  }
  if (state.full()) return "the game is over: every box is filled";
  if (state.rollsInTurn >= ROLLS_PER_TURN) {
    return `no rolls left: a turn has ${ROLLS_PER_TURN} rolls`;
  }
  if (state.dice === null && hold.some((h) => h)) {
    return `hold ${show(hold)} on a turn's first roll (nothing can be held yet)`;
  }
  return null;
}

/** Why this score entry is not a legal box choice now (null: it is). */
function scoreProblem(state, entry) {
  const box = entry.category;
  if (!sameKeys(entry, ["action", "bonus", "category", "points"])) {
    return "a score entry has exactly the keys action, bonus, category, points; "
      + `got ${pythonRepr(sortedKeys(entry))}`;
  }
  if (state.full()) return "the game is over: every box is filled";
  if (state.dice === null) return "a box is scored before the turn's first roll";
  if (typeof box !== "string" || !SHEETS[state.ruleset].boxes.includes(box)) {
    return `${pythonRepr(box)} is not a box of ${state.ruleset}`;
  }
  if (Object.hasOwn(state.boxes, box)) return `the ${box} box is already filled`;
  const allowed = allowedBoxes(state.ruleset, state.dice, state.boxes);
  if (!allowed.includes(box)) {
    return `Joker rule: ${show(state.dice)} may only go in ${allowed.join(", ")}`;
  }
  return null;
}

/**
 * Replay a transcript against the stream's slots (`rolls`, as `streamRolls` or `seatRolls`
 * give them: element n is slot n), each roll taking the slot `dealing` gives it (per-turn or
 * sequential): one check per roll and per box, and a final "game complete". Goes on after a
 * wrong entry with what the rules give, so every wrong entry is named. Returns
 * {checks, boxes, extra}.
 */
export function replay(transcript, ruleset, rolls, dealing = SEQUENTIAL, { explain = true } = {}) {
  validateDealing(dealing);
  const rules = SHEETS[ruleset];
  const state = {
    ruleset, boxes: {}, extra: 0, dice: null, rollsInTurn: 0, rolls: 0,
    full() { return Object.keys(this.boxes).length === rules.boxes.length; },
  };
  const checks = [];
  const note = (name, ok, detail) => { if (explain || !ok) checks.push({ name, ok, detail }); };
  if (!Array.isArray(transcript)) {
    checks.push({ name: "transcript", ok: false,
      detail: "the transcript is not a list of actions" });
    return { checks, boxes: state.boxes, extra: 0 };
  }
  transcript.forEach((entry, i) => {
    const action = isObject(entry) ? entry.action : undefined;
    if (action === "roll") {
      const name = `roll ${state.rolls}`;
      const problem = rollProblem(state, entry);
      if (problem) {
        checks.push({ name, ok: false, detail: `action ${i}: ${problem}` });
        return;
      }
      // A legal roll is before the sheet is full and within its turn's 3 rolls, so its slot
      // is below 3 per box: one of `rolls` under either dealing.
      const slot = rollSlot(dealing, Object.keys(state.boxes).length, state.rollsInTurn,
        state.rolls);
      const drawn = rolls[slot];
      const dice = entry.hold.map((held, p) => (held ? state.dice[p] : drawn[p]));
      const got = entry.dice;
      const exact = Array.isArray(got) && got.length === 5
        && got.every((d, p) => Number.isInteger(d) && d === dice[p]);
      const first = DICE_PER_ROLL * slot;
      const text = `stream dice ${first}–${first + 4} give ${show(drawn)} `
        + `with hold ${show(entry.hold)} → ${show(dice)}`;
      note(name, exact, exact ? text : `${text} but the transcript records ${pythonRepr(got)}`);
      state.dice = dice;
      state.rollsInTurn += 1;
      state.rolls += 1;
    } else if (action === "score") {
      const box = entry.category;
      const name = `box ${typeof box === "string" ? box : JSON.stringify(box ?? null)}`;
      const problem = scoreProblem(state, entry);
      if (problem) {
        checks.push({ name, ok: false, detail: `action ${i}: ${problem}` });
        return;
      }
      const worth = score(ruleset, box, state.dice, state.boxes, state.rollsInTurn === 1);
      const bonus = extraBonus(ruleset, state.dice, state.boxes, box);
      const exact = Number.isInteger(entry.points) && Number.isInteger(entry.bonus)
        && entry.points === worth && entry.bonus === bonus;
      const joker = jokerApplies(ruleset, state.dice, state.boxes) ? " (Joker rule)" : "";
      const text = `turn ${Object.keys(state.boxes).length + 1}: ${show(state.dice)} score `
        + `${worth} in ${box}${joker}, bonus ${bonus}`;
      note(name, exact, exact ? `${text} = recorded ${worth}, bonus ${bonus}`
        : `${text} but the transcript records points ${pythonRepr(entry.points)}, `
          + `bonus ${pythonRepr(entry.bonus)}`);
      state.boxes[box] = worth;
      state.extra += bonus;
      state.dice = null;
      state.rollsInTurn = 0;
    } else {
      checks.push({ name: `action ${i}`, ok: false,
        detail: `unknown action ${pythonRepr(action)} (a roll or a score)` });
    }
  });
  const filled = Object.keys(state.boxes).length;
  note("game complete", state.full(), `${filled} of ${rules.boxes.length} boxes filled`);
  return { checks, boxes: state.boxes, extra: state.extra };
}

// ------------------------------------------------------------------ one game

/** What is wrong with a receipt's format (empty: nothing). */
function receiptProblems(receipt) {
  const v2 = isObject(receipt) && receipt.type === RECEIPT_V2_TYPE;
  const problems = formatProblems(receipt, v2 ? RECEIPT_V2_TYPE : RECEIPT_TYPE);
  if (!problems.length && receipt.type !== RECEIPT_TYPE && !v2) {
    problems.push(`type '${receipt.type}' ≠ ${RECEIPT_TYPE} or ${RECEIPT_V2_TYPE}`);
  }
  if (!problems.length && !Object.hasOwn(SHEETS, receipt.ruleset)) {
    problems.push(`ruleset '${receipt.ruleset}' is no known sheet`);
  }
  return problems;
}

/**
 * Verify one finished game: `ledger` (the entries, or the /ledger response), `receipt`,
 * `transcript` and, optionally, `proof` ({index, size, path}, or the /proof response).
 * Returns [{name, ok, detail}] — ok true, false, or null when the check could not be made.
 */
export async function verifyGame({ ledger, receipt, transcript, proof = null }) {
  const entries = Array.isArray(ledger) ? ledger : ledger.entries;
  if (proof && isObject(proof.proof)) proof = proof.proof;
  const view = readLedger(entries);
  const checks = await checkLedger(entries);
  const problems = receiptProblems(receipt);
  checks.push(aggregate("receipt format", problems,
    "a receipt with exactly its fields, well typed"));
  if (problems.length) return checks;
  const { date, ruleset } = receipt;
  const [position, reveal] = view.reveals.get(date) || [];
  if (!reveal) {
    checks.push({ name: "reveal", ok: false, detail: `${date} has no well-formed reveal entry `
      + `in the ledger (${entries.length} entries)` });
    return checks;
  }
  if (reveal.epoch !== receipt.epoch) {
    checks.push({ name: "reveal", ok: false, detail: `receipt epoch ${receipt.epoch} ≠ epoch `
      + `${reveal.epoch} of the reveal of ${date} (entry ${position})` });
    return checks;
  }
  if (!Object.hasOwn(reveal.roots, ruleset) || !Object.hasOwn(reveal.games, ruleset)) {
    checks.push({ name: "reveal", ok: false,
      detail: `the reveal of ${date} (entry ${position}) has no ${ruleset} root` });
    return checks;
  }
  if (!view.epochs.has(reveal.epoch)) {
    checks.push({ name: "reveal", ok: false, detail: `the reveal of ${date} (entry ${position}) `
      + `names epoch ${reveal.epoch}, which has no well-formed epoch entry` });
    return checks;
  }
  checks.push({ name: "reveal", ok: true,
    detail: `${date} revealed by entry ${position} (epoch ${reveal.epoch}, day ${reveal.day})` });
  const epoch = view.epochs.get(reveal.epoch)[1];
  const problem = await chainProblem(reveal, epoch, new Map());
  checks.push({ name: "seed", ok: !problem, detail: problem || `seed ${short(reveal.seed)} `
    + `hashed down ${reveal.day} steps = epoch ${epoch.epoch}'s anchor ${short(epoch.anchor)}` });
  if (receipt.type === RECEIPT_V2_TYPE || reveal.type === REVEAL_V2_TYPE) {
    const wanted = reveal.type === REVEAL_V2_TYPE ? RECEIPT_V2_TYPE : RECEIPT_TYPE;
    checks.push({ name: "receipt version", ok: receipt.type === wanted,
      detail: `receipt type ${receipt.type} ${receipt.type === wanted ? "=" : "≠"} ${wanted} `
        + `of a ${reveal.type} day` });
  }

  const rolls = await streamRolls(reveal.seed, date, ruleset);
  // The date is dealt by the dealing its epoch entry published before play.
  const replayed = replay(transcript, ruleset, rolls, epochDealing(epoch), { explain: true });
  checks.push(...replayed.checks);
  const t = totals(ruleset, replayed.boxes, replayed.extra);
  const same = t.total === receipt.total;
  checks.push({ name: "total", ok: same, detail: `recomputed ${t.total} (upper ${t.upper} + `
    + `bonus ${t.upper_bonus} + lower ${t.lower} + extra ${t.extra_bonus}) ${same ? "=" : "≠"} `
    + `receipt total ${receipt.total}` });

  const encoded = Array.isArray(transcript) ? safeCanonicalBytes(transcript) : null;
  if (encoded === null) {
    checks.push({ name: "transcript hash", ok: false,
      detail: "the transcript has no canonical JSON (not a list, or holds a float)" });
  } else {
    const digest = await sha256Hex(encoded);
    checks.push({ name: "transcript hash", ok: digest === receipt.transcript_sha256,
      detail: `SHA-256 of the transcript ${compared(digest, receipt.transcript_sha256)} `
        + "receipt transcript_sha256" });
  }

  const key = epoch.public_key;
  if (!(await ed25519Supported())) {
    checks.push({ name: "receipt signature", ok: null, detail: NO_ED25519 });
  } else {
    const valid = await signatureOk(key, receipt);
    checks.push({ name: "receipt signature", ok: valid, detail: `sig ${short(receipt.sig)} is `
      + `${valid ? "" : "not "}a valid Ed25519 signature by epoch ${receipt.epoch}'s key `
      + short(key) });
  }
  checks.push(...(await proofChecks(receipt, reveal, proof)));
  return checks;
}

/** The proof's tree size is the reveal's count, and it leads the receipt's leaf to the root. */
async function proofChecks(receipt, reveal, proof) {
  if (proof === null || proof === undefined) {
    return [{ name: "inclusion proof", ok: null, detail: "NOT checked: no inclusion proof given" }];
  }
  const ruleset = receipt.ruleset;
  const wellFormed = isObject(proof) && sameKeys(proof, ["index", "path", "size"])
    && Number.isInteger(proof.index) && Number.isInteger(proof.size) && Array.isArray(proof.path)
    && proof.path.every((h) => isHex(h, 64));
  if (wellFormed && Object.hasOwn(receipt, "index") && proof.index !== receipt.index) {
    return [{ name: "inclusion proof", ok: false,
      detail: `malformed proof: index ${proof.index} ≠ receipt index ${receipt.index}` }];
  }
  if (!wellFormed) {
    return [{ name: "inclusion proof", ok: false,
      detail: `malformed proof: ${JSON.stringify(proof)}` }];
  }
  const games = reveal.games[ruleset];
  const sizeOk = proof.size === games;
  const leaf = await leafHash(signedBytes(receipt));
  // The tree size comes from the reveal entry, not from the proof (FAIRNESS.md).
  const root = await inclusionRoot(leaf, proof.index, games, proof.path.map(hexToBytes));
  const shown = root ? bytesToHex(root) : "no root (index/size/path do not fit together)";
  const published = reveal.roots[ruleset];
  return [
    { name: "proof size", ok: sizeOk,
      detail: `tree size ${proof.size} ${sizeOk ? "=" : "≠"} reveal games[${ruleset}] ${games}` },
    { name: "inclusion proof", ok: shown === published,
      detail: `leaf ${short(bytesToHex(leaf))} at index ${proof.index} of ${games} with `
        + `${proof.path.length} path hashes → root ${compared(shown, published)} `
        + `reveal roots[${ruleset}]` },
  ];
}

// ------------------------------------------------------------------ the day's log (v2)

const LOG_PREFIX = "yacht-daily/log";
const DASH = "\u2014";
const NOTE_ED25519 = 1;
const COSIGNATURE_V1 = 4;
const utf8 = (text) => new TextEncoder().encode(text);

/** RFC 9162 (2.1.4.2): is (second, secondRoot) an append-only extension of (first, firstRoot)? */
export async function verifyConsistency(first, second, firstRoot, secondRoot, path) {
  const same = (a, b) => bytesToHex(a) === bytesToHex(b);
  if (!(first >= 0 && first <= second)) return false;
  if (first === second) return path.length === 0 && same(firstRoot, secondRoot);
  if (first === 0) return path.length === 0 && same(firstRoot, await sha256(new Uint8Array()));
  const proof = ((first & (first - 1)) === 0 ? [firstRoot] : []).concat(path);
  const roots = await consistencyRoots(first, second, proof);
  return roots !== null && same(roots[0], firstRoot) && same(roots[1], secondRoot);
}

/** [first root, second root] that SUBPROOF(m, D[n], false) leads to by RFC 9162 (2.1.4.2), the
 * first hash standing for the first root; null when it is ill-shaped. For 0 < m < n. */
export async function consistencyRoots(m, n, proof) {
  if (!proof.length) return null;
  let fn = m - 1;
  let sn = n - 1;
  while (fn % 2 === 1) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
  let fr = proof[0];
  let sr = proof[0];
  for (const sibling of proof.slice(1)) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      fr = await nodeHash(sibling, fr);
      sr = await nodeHash(sibling, sr);
      while (fn % 2 === 0 && fn !== 0) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
    } else {
      sr = await nodeHash(sr, sibling);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? [fr, sr] : null;
}

/** SHA-256(name || 0x0A || signature type || public key)[:4] (C2SP signed-note). */
export async function noteKeyId(name, kind, key) {
  return (await sha256(concat(utf8(name + "\n"), new Uint8Array([kind]), key))).slice(0, 4);
}

/** Strict canonical standard base64 (of `size` bytes when given), or throw. */
function fromBase64(text, size = null) {
  let raw;
  try {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4) throw new Error();
    raw = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    throw new Error(`${JSON.stringify(text)} is not base64`);
  }
  if (btoa(String.fromCharCode(...raw)) !== text || (size !== null && raw.length !== size)) {
    throw new Error(`${JSON.stringify(text)} is not canonical base64 of ${size ?? "some"} bytes`);
  }
  return raw;
}

/** A note key name: non-empty, no space, no '+'. */
function keyNameOk(name) {
  return name.length > 0 && !/[\s+]/u.test(name);
}

/** {text, signatures: [{name, keyId, payload}]} of a C2SP signed note, or throw. */
export function readNote(note) {
  if (typeof note !== "string" || /[\u0000-\u0009\u000b-\u001f]/.test(note)) {
    throw new Error("a note is text without control characters but newlines");
  }
  if (!note.isWellFormed() || utf8(note).length > 65536) {
    throw new Error("a note is valid UTF-8 of at most 65536 bytes");
  }
  const split = note.lastIndexOf("\n\n");
  if (split < 0 || !note.endsWith("\n")) {
    throw new Error("a note is text, a blank line and signature lines");
  }
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2, -1).split("\n");
  if (lines.length < 1 || lines.length > 64 || note.slice(split + 2) === "") {
    throw new Error("a note has 1 to 64 signature lines");
  }
  const signatures = lines.map((line) => {
    const parts = line.split(" ");
    if (parts.length !== 3 || parts[0] !== DASH || !keyNameOk(parts[1])) {
      throw new Error(`${JSON.stringify(line)} is not a signature line`);
    }
    const raw = fromBase64(parts[2]);
    if (raw.length < 5) throw new Error(`the signature of '${parts[1]}' is too short`);
    return { name: parts[1], keyId: bytesToHex(raw.slice(0, 4)), payload: raw.slice(4) };
  });
  return { text, signatures };
}

/** A checkpoint body read: {origin, size, root, time, prev, close}, or throw. */
export function readCheckpoint(body) {
  const lines = body.endsWith("\n") ? body.slice(0, -1).split("\n") : [];
  if (lines.length !== 5 && lines.length !== 6) {
    throw new Error(`a checkpoint has 5 lines (6 when it closes), not ${lines.length}`);
  }
  const [origin, size, root, timeLine, prev] = lines;
  const parts = origin.split("/");
  if (!(parts.length === 5 && parts.slice(0, 2).join("/") === LOG_PREFIX
    && isHex(parts[2], 16) && isDate(parts[3]) && /^[a-z]+(-[a-z]+)*$/.test(parts[4]))) {
    throw new Error(`origin '${origin}' is not ${LOG_PREFIX}/<16 hex>/<date>/<sheet>`);
  }
  const decimal = /^(0|[1-9][0-9]{0,15})$/;
  if (!decimal.test(size) || Number(size) > Number.MAX_SAFE_INTEGER) {
    throw new Error(`the tree size '${size}' is not a decimal`);
  }
  const time = timeLine.slice(5);
  if (!timeLine.startsWith("time ") || !isTime(time) || Number(time.slice(11, 13)) > 23
    || Number(time.slice(14, 16)) > 59 || Number(time.slice(17, 19)) > 59) {
    throw new Error(`line '${timeLine}' is not 'time YYYY-MM-DDTHH:MM:SSZ'`);
  }
  if (!prev.startsWith("prev ")) throw new Error(`line '${prev}' is not 'prev <base64>'`);
  const checkpoint = { origin, size: Number(size), root: fromBase64(root, 32), time,
    prev: fromBase64(prev.slice(5), 32), close: null };
  if (lines.length === 6) {
    const close = lines[5].split(" ");
    if (close.length !== 3 || close[0] !== "close" || !decimal.test(close[1])) {
      throw new Error(`line '${lines[5]}' is not 'close <games> <base64 root>'`);
    }
    checkpoint.close = { games: Number(close[1]), root: fromBase64(close[2], 32) };
  }
  return checkpoint;
}

/** The published log's checkpoints read, and what is malformed in it. */
function readLog(log) {
  const items = isObject(log) ? log.checkpoints : undefined;
  if (!Array.isArray(items) || !items.length || !sameKeys(log, ["checkpoints"])) {
    return { points: [], problems: ["the log is not an object with exactly a non-empty "
      + "checkpoints list"] };
  }
  const points = [];
  const problems = [];
  items.forEach((item, i) => {
    try {
      if (!isObject(item) || !sameKeys(item, ["consistency", "note"])) {
        throw new Error("not an object with exactly note and consistency");
      }
      if (!Array.isArray(item.consistency) || !item.consistency.every((h) => isHex(h, 64))) {
        throw new Error("consistency is not a list of 64-hex-digit hashes");
      }
      const { text, signatures } = readNote(item.note);
      points.push({ checkpoint: readCheckpoint(text), body: text, signatures,
        consistency: item.consistency.map(hexToBytes) });
    } catch (error) {
      problems.push(`checkpoint ${i}: ${error.message}`);
    }
  });
  return { points, problems };
}

/** A 64-byte Ed25519 signature of `message` by `keyHex`. */
async function ed25519Ok(keyHex, message, signature) {
  return signature.length === 64 && verifyEd25519(keyHex, message, bytesToHex(signature));
}

/** {name, key} of a witness vkey `name+keyid+base64(0x04 || key)`, or throw. */
export async function parseWitness(text) {
  const parts = [text.split("+", 1)[0]];
  const rest = text.slice(parts[0].length + 1);
  parts.push(rest.split("+", 1)[0], rest.slice(rest.indexOf("+") + 1));
  if (rest.indexOf("+") < 0 || !keyNameOk(parts[0])) {
    throw new Error(`witness key '${text}' is not name+keyid+base64`);
  }
  const raw = fromBase64(parts[2], 33);
  const id = bytesToHex(await noteKeyId(parts[0], raw[0], raw.slice(1)));
  if (raw[0] !== COSIGNATURE_V1 || id !== parts[1]) {
    throw new Error(`witness key '${text}': not a cosignature/v1 key with that key ID`);
  }
  return { name: parts[0], key: raw.slice(1) };
}

// ---------------------------------------------------------------- gossip (FAIRNESS.md)

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const FINGERPRINT_CHARACTERS = 20;
const GOSSIP_LINE = new RegExp("(?<!\\S)log ([0-9]{4}-[0-9]{2}-[0-9]{2})/([a-z]+(?:-[a-z]+)*) "
  + "((?:0|[1-9][0-9]{0,15}) (?:[A-Z2-7]{4}-){4}[A-Z2-7]{4})(?!\\S)");

/** RFC 4648 base32 of `bytes`, without padding. */
function base32(bytes) {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return bits ? out + BASE32[(value << (5 - bits)) & 31] : out;
}

/** A checkpoint body's fingerprint: its size, then 20 base32 characters of its SHA-256. */
export async function checkpointFingerprint(body) {
  const { size } = readCheckpoint(body);
  const code = base32(await sha256(utf8(body))).slice(0, FINGERPRINT_CHARACTERS);
  return `${size} ${code.match(/.{4}/g).join("-")}`;
}

/** {date, sheet, fingerprint} of the first gossip line in a pasted text, or null. */
export function findGossipLine(text) {
  const found = typeof text === "string" ? GOSSIP_LINE.exec(text) : null;
  return found ? { date: found[1], sheet: found[2], fingerprint: found[3] } : null;
}

/** [{size, fingerprint}] of each readable checkpoint of a published log, in order. */
export async function logFingerprints(log) {
  const served = [];
  for (const p of readLog(log).points) {
    served.push({ size: p.checkpoint.size, fingerprint: await checkpointFingerprint(p.body) });
  }
  return served;
}

/**
 * A friend's fingerprint against the log as this reader is served it: the log's own checks
 * (verifyLog), then "gossip": one of its checkpoints has exactly that fingerprint.
 */
export async function verifyGossip({ ledger, date, ruleset, log, fingerprint }) {
  const checks = await verifyLog({ ledger, date, ruleset, log });
  const served = await logFingerprints(log);
  const prints = served.map((p) => p.fingerprint);
  const size = Number(fingerprint.split(" ")[0]);
  const at = prints.indexOf(fingerprint);
  const sameSize = served.filter((p) => p.size === size).map((p) => p.fingerprint);
  let detail;
  if (at >= 0) {
    detail = `checkpoint ${at} of the log (size ${size}) has the fingerprint ${fingerprint}`;
  } else if (sameSize.length) {
    detail = `the log's checkpoint of size ${size} has the fingerprint ${sameSize[0]}, not `
      + `${fingerprint} (a fork: two histories)`;
  } else {
    detail = `the log has no checkpoint of size ${size} (another history)`;
  }
  checks.push({ name: "gossip", ok: at >= 0, detail });
  return checks;
}

/** The epoch that owns `date`: of those whose days cover it, the latest started; or null. */
function epochCovering(view, date) {
  let owner = null;
  const epochs = [...view.epochs.values()].map(([, epoch]) => epoch)
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.epoch - b.epoch));
  for (const epoch of epochs) {
    const days = isDate(date) ? (Date.parse(date) - Date.parse(epoch.start)) / 86400000 : -1;
    if (days >= 0 && days < epoch.length) owner = epoch;
  }
  return owner;
}

/**
 * Verify one (date, sheet)'s log: `ledger`, `date`, `ruleset`, `log` ({checkpoints: [{note,
 * consistency}]}), `witnesses` (vkey texts) and `quorum` (cosignatures needed on the last
 * checkpoint). Returns [{name, ok, detail}] like verifyGame.
 */
export async function verifyLog({ ledger, date, ruleset, log, witnesses = [], quorum = 0 }) {
  const entries = Array.isArray(ledger) ? ledger : ledger.entries;
  const view = readLedger(entries);
  const epoch = epochCovering(view, date);
  if (!epoch) return [{ name: "log format", ok: false, detail: `no published epoch covers ${date}` }];
  const key = epoch.public_key;
  const name = `${LOG_PREFIX}/${key.slice(0, 16)}/${date}/${ruleset}`;
  const { points, problems } = readLog(log);
  points.forEach((p, i) => {
    if (p.checkpoint.origin !== name) {
      problems.push(`checkpoint ${i}: origin '${p.checkpoint.origin}' ≠ '${name}'`);
    }
  });
  const checks = [aggregate("log format", problems,
    `${points.length} checkpoints of ${name}, each a signed note`)];
  if (problems.length) return checks;
  const ed25519 = await ed25519Supported();
  if (!ed25519) {
    checks.push({ name: "log signatures", ok: null, detail: NO_ED25519 });
  } else {
    const wanted = bytesToHex(await noteKeyId(name, NOTE_ED25519, hexToBytes(key)));
    const failures = [];
    for (const [i, p] of points.entries()) {
      const mine = p.signatures.filter((s) => s.name === name && s.keyId === wanted);
      let valid = mine.length > 0;
      for (const s of mine) valid = valid && (await ed25519Ok(key, utf8(p.body), s.payload));
      if (!mine.length) {
        failures.push(`checkpoint ${i}: no signature by ${name} (key ID ${wanted})`);
      } else if (!valid) {
        failures.push(`checkpoint ${i}: signature by ${name} is not a valid Ed25519 signature `
          + `of its body by ${short(key)}`);
      }
    }
    checks.push(aggregate("log signatures", failures,
      `${points.length} checkpoints, each signed by the epoch key ${short(key)}`));
  }
  const chain = [];
  const consistency = [];
  for (const [i, p] of points.entries()) {
    const cp = p.checkpoint;
    const before = i ? points[i - 1] : null;
    const expected = before ? await sha256(utf8(before.body)) : new Uint8Array(32);
    const source = before ? `SHA-256 of checkpoint ${i - 1}` : "32 zero bytes";
    if (bytesToHex(cp.prev) !== bytesToHex(expected)) {
      chain.push(`checkpoint ${i}: prev ${bytesToHex(cp.prev)} ≠ ${source} ${bytesToHex(expected)}`);
    }
    if (!before) {
      if (p.consistency.length) consistency.push("checkpoint 0: a consistency proof from nothing");
      continue;
    }
    const old = before.checkpoint;
    if (cp.size < old.size) {
      chain.push(`checkpoint ${i}: size ${cp.size} < ${old.size} of checkpoint ${i - 1}`);
    }
    if (cp.time < old.time) {
      chain.push(`checkpoint ${i}: time ${cp.time} before ${old.time} of checkpoint ${i - 1}`);
    }
    if (!(await verifyConsistency(old.size, cp.size, old.root, cp.root, p.consistency))) {
      const fork = old.size === cp.size && bytesToHex(old.root) !== bytesToHex(cp.root)
        ? " (same size, other root: a fork)" : "";
      consistency.push(`checkpoint ${i}: size ${cp.size} root ${bytesToHex(cp.root)} is not `
        + `consistent with size ${old.size} root ${bytesToHex(old.root)}${fork}`);
    }
  }
  checks.push(aggregate("log chain", chain, `${points.length} checkpoints, each prev = SHA-256 `
    + "of the one before, sizes and times in order"));
  checks.push(aggregate("log consistency", consistency, `${points.length} checkpoints, each an `
    + "append-only extension of the one before (RFC 9162 consistency proofs)"));
  checks.push(await closeCheck(view, date, ruleset, points));
  if (witnesses.length || quorum) {
    checks.push(await cosignatureCheck(points, witnesses, quorum, ed25519));
  }
  return checks;
}

/** Only the last checkpoint closes; once revealed, it is the reveal's count, root and hash. */
async function closeCheck(view, date, ruleset, points) {
  const failures = [];
  points.slice(0, -1).forEach((p, i) => {
    if (p.checkpoint.close) failures.push(`checkpoint ${i}: closes before the last one`);
  });
  const last = points[points.length - 1];
  const cp = last.checkpoint;
  const [, reveal] = view.reveals.get(date) || [];
  if (!reveal) {
    return aggregate("log close", failures,
      `not revealed yet; the log is ${cp.close ? "closed" : "open"}`);
  }
  if (reveal.type !== REVEAL_V2_TYPE) {
    return { name: "log close", ok: false,
      detail: `${date} was revealed by a ${reveal.type} entry, which commits to no log` };
  }
  if (!cp.close) failures.push("the last checkpoint does not close the log");
  const wanted = {
    games: [cp.size, reveal.games[ruleset]],
    roots: [bytesToHex(cp.root), reveal.roots[ruleset]],
    logs: [await sha256Hex(utf8(last.body)), reveal.logs[ruleset]],
  };
  for (const [key, [mine, published]] of Object.entries(wanted)) {
    if (mine !== published) {
      failures.push(`close checkpoint ${key} ${mine} ≠ reveal ${key}[${ruleset}] ${published}`);
    }
  }
  return aggregate("log close", failures, `the close checkpoint (size ${cp.size}, root `
    + `${short(bytesToHex(cp.root))}) is the reveal's games, roots and logs[${ruleset}]`);
}

/** Every cosignature by a named witness verifies; the last checkpoint has `quorum` of them. */
async function cosignatureCheck(points, witnessTexts, quorum, ed25519) {
  if (!ed25519) return { name: "cosignatures", ok: null, detail: NO_ED25519 };
  const witnesses = [];
  for (const text of witnessTexts) witnesses.push(await parseWitness(text));
  const failures = [];
  const valid = new Set();
  for (const [i, p] of points.entries()) {
    for (const { name, key } of witnesses) {
      const id = bytesToHex(await noteKeyId(name, COSIGNATURE_V1, key));
      for (const s of p.signatures.filter((x) => x.name === name && x.keyId === id)) {
        let ok = false;
        if (s.payload.length === 72) {
          const stamp = new DataView(s.payload.buffer, s.payload.byteOffset, 8).getBigUint64(0);
          const message = utf8(`cosignature/v1\ntime ${stamp}\n${p.body}`);
          ok = stamp < 2n ** 63n && (await ed25519Ok(bytesToHex(key), message, s.payload.slice(8)));
        }
        if (ok && i === points.length - 1) valid.add(name);
        if (!ok) failures.push(`checkpoint ${i}: cosignature by ${name} does not verify`);
      }
    }
  }
  const names = [...valid].sort(compareCodePoints).join(", ");
  if (valid.size < quorum) {
    failures.push(`the last checkpoint has ${valid.size} valid cosignatures of the named `
      + `witnesses (${names || "none"}), fewer than the ${quorum} required`);
  }
  return aggregate("cosignatures", failures, `the last checkpoint is cosigned by ${valid.size} `
    + `named witnesses (${names}); ${quorum} required`);
}

/** A v2 receipt's proof leads to a checkpoint of the log of the proof's size, and the game
 *  finished no later than the first checkpoint that includes it. */
export async function verifyReceiptInLog({ receipt, log, proof }) {
  const { points, problems } = readLog(log);
  if (problems.length) return [{ name: "receipt in log", ok: false, detail: problems.join("; ") }];
  if (!(isObject(proof) && sameKeys(proof, ["index", "path", "size"])
    && Number.isInteger(proof.index) && Number.isInteger(proof.size)
    && Array.isArray(proof.path) && proof.path.every((h) => isHex(h, 64)))) {
    return [{ name: "receipt in log", ok: false, detail: "malformed inclusion proof" }];
  }
  const index = receipt.index;
  if (proof.index !== index) {
    return [{ name: "receipt in log", ok: false,
      detail: `proof index ${proof.index} ≠ receipt index ${JSON.stringify(index ?? null)}` }];
  }
  const target = points.map((p) => p.checkpoint).find((cp) => cp.size === proof.size);
  if (!target) {
    return [{ name: "receipt in log", ok: false,
      detail: `no checkpoint of the log has the proof's size ${proof.size}` }];
  }
  const leaf = await leafHash(signedBytes(receipt));
  const found = await inclusionRoot(leaf, index, target.size, proof.path.map(hexToBytes));
  const shown = found ? bytesToHex(found) : "no root (index/size/path do not fit together)";
  const first = points.map((p) => p.checkpoint).find((cp) => cp.size > index);
  const finished = receipt.finished_at;
  const timely = Boolean(first) && typeof finished === "string" && finished <= first.time;
  return [
    { name: "receipt in log", ok: shown === bytesToHex(target.root),
      detail: `leaf ${short(bytesToHex(leaf))} at index ${index} of ${target.size} → root `
        + `${compared(shown, bytesToHex(target.root))} of the checkpoint of size ${target.size}` },
    { name: "receipt time", ok: timely, detail: `finished_at ${finished} ${timely ? "≤" : "after"}`
      + ` the time ${first ? first.time : "(none)"} of the first checkpoint that includes `
      + `index ${index}` },
  ];
}

/** Checkpoints kept earlier (`saved`, signed notes) are, byte for byte, served by `log`; one
 *  of a served size with another root is a fork. `publicKey` checks their signatures. */
export async function verifySavedCheckpoints({ saved, log, publicKey = null }) {
  const { points, problems } = readLog(log);
  if (problems.length) {
    return [{ name: "saved checkpoints", ok: false, detail: problems.join("; ") }];
  }
  const bodies = new Set(points.map((p) => p.body));
  const failures = [];
  for (const [i, note] of saved.entries()) {
    let text;
    let signatures;
    let cp;
    try {
      ({ text, signatures } = readNote(note));
      cp = readCheckpoint(text);
    } catch (error) {
      failures.push(`saved ${i}: ${error.message}`);
      continue;
    }
    if (publicKey && (await ed25519Supported())) {
      const id = bytesToHex(await noteKeyId(cp.origin, NOTE_ED25519, hexToBytes(publicKey)));
      let signed = false;
      for (const s of signatures) {
        signed = signed || (s.keyId === id && (await ed25519Ok(publicKey, utf8(text), s.payload)));
      }
      if (!signed) {
        failures.push(`saved ${i}: not signed by the epoch key ${short(publicKey)}`);
        continue;
      }
    }
    if (bodies.has(text)) continue;
    const other = points.map((p) => p.checkpoint)
      .filter((c) => c.size === cp.size && bytesToHex(c.root) !== bytesToHex(cp.root));
    if (other.length) {
      failures.push(`saved ${i}: size ${cp.size} root ${bytesToHex(cp.root)} ≠ served root `
        + `${bytesToHex(other[0].root)} of the same size (a fork)`);
    } else {
      failures.push(`saved ${i}: the log does not serve this checkpoint (size ${cp.size}, `
        + `time ${cp.time})`);
    }
  }
  return [aggregate("saved checkpoints", failures,
    `${saved.length} saved checkpoints, each served unchanged`)];
}

/** The close checkpoint commits to every published game's final transcript. */
export async function verifyFinalTranscripts({ log, games }) {
  const { points, problems } = readLog(log);
  const close = points.length ? points[points.length - 1].checkpoint.close : null;
  if (problems.length || !close) {
    return [{ name: "final transcripts", ok: false,
      detail: problems.join("; ") || "the log has no close checkpoint" }];
  }
  const leaves = new Map();
  const failures = [];
  for (const game of games) {
    const encoded = isObject(game) && Array.isArray(game.transcript)
      ? safeCanonicalBytes(game.transcript) : null;
    if (encoded === null || typeof game.id !== "string" || typeof game.player !== "string") {
      failures.push(`game ${isObject(game) ? game.id : JSON.stringify(game)}: no final `
        + "transcript leaf");
      continue;
    }
    leaves.set(game.id, canonicalBytes({ type: "yacht-daily/final/v1", game: game.id,
      player: game.player, finished: game.status === "finished",
      transcript_sha256: await sha256Hex(encoded) }));
  }
  if (failures.length) return [aggregate("final transcripts", failures, "")];
  const hashes = [];
  for (const id of [...leaves.keys()].sort(compareCodePoints)) hashes.push(await leafHash(leaves.get(id)));
  const root = bytesToHex(await merkleRoot(hashes));
  if (leaves.size !== close.games) {
    failures.push(`${leaves.size} published games ≠ close games ${close.games}`);
  }
  if (root !== bytesToHex(close.root)) {
    failures.push(`root of the ${leaves.size} final transcripts ${root} ≠ close root `
      + bytesToHex(close.root));
  }
  return [aggregate("final transcripts", failures, `${leaves.size} games' final transcripts `
    + "(finished or abandoned) are the close checkpoint's")];
}

// ------------------------------------------------------------------ one match

// A game on its own (practice, against the computer, a table; FAIRNESS.md, "Games on their
// own"): a commitment to a fresh server seed (and to the match's dealing) before the first
// roll, one dice stream per seat mixing every human's client seed, and a signed result
// revealing the seed at the end. A v2 match deals per turn (`per-turn`, or `duplicate`: every
// seat reads seat 0's stream, so every seat gets the same dice each turn), a v1 match
// sequentially.
export const MATCH_TYPE = "yacht-daily/match/v1";
export const MATCH_V2_TYPE = "yacht-daily/match/v2";
const MATCH_TYPES = [MATCH_TYPE, MATCH_V2_TYPE];
export const MATCH_DICE_DOMAIN = "yacht-daily/match-dice/v1";
const MATCH_COMMIT_DOMAIN = "yacht-daily/match-commit/v1";
const MATCH_COMMIT_V2_DOMAIN = "yacht-daily/match-commit/v2";
export const DUPLICATE = "duplicate";
// The dealings of a match: a v2 match's (per-turn, duplicate), then a v1 match's.
export const MATCH_DEALINGS = [PER_TURN, DUPLICATE, SEQUENTIAL];
const V2_DEALINGS = [PER_TURN, DUPLICATE];
const MATCH_KINDS = ["practice", "computer", "table"];
const MAX_SEATS = 6;
const TOKEN = /^[A-Za-z0-9._~-]{1,64}$/;
const TOKEN_TEXT = "A-Z a-z 0-9 - . _ ~";
const SEAT_KEYS = ["seat", "kind", "player", "bot", "name", "transcript_sha256", "total", "rank"];
FIELDS[MATCH_TYPE] = { type: "str", match: "str", kind: "str", ruleset: "str", epoch: "int",
  created_at: "time", ended_at: "time", commitment: 64, server_seed: 64, client_seeds: "list",
  seats: "list", winners: "list", finished: "bool", sig: 128 };
// A v2 result: a v1 result plus the dealing of its seats' rolls (per-turn or duplicate).
FIELDS[MATCH_V2_TYPE] = { ...FIELDS[MATCH_TYPE], dealing: "str" };
KIND_CHECKS.bool = (v) => typeof v === "boolean";

/** True when `text` is a valid client seed (or match id): 1 to 64 of A-Z a-z 0-9 - . _ ~. */
export function isClientSeed(text) {
  return typeof text === "string" && TOKEN.test(text);
}

/** A fresh random client seed for the browser: 32 hex digits from crypto.getRandomValues. */
export function newClientSeed() {
  return bytesToHex(globalThis.crypto.getRandomValues(new Uint8Array(16)));
}

/** `dealing` when it names a match's dealing (per-turn, duplicate, sequential); else throws. */
export function validateMatchDealing(dealing) {
  if (!MATCH_DEALINGS.includes(dealing)) {
    throw new TypeError(`a match's dealing is one of ${MATCH_DEALINGS.join(", ")}, `
      + `got ${JSON.stringify(dealing)}`);
  }
  return dealing;
}

/** The rule a match's dealing takes its rolls' slots by: per turn for duplicate, else itself. */
export function slotRule(dealing) {
  return validateMatchDealing(dealing) === DUPLICATE ? PER_TURN : dealing;
}

/** The seat whose stream `seat` reads: seat 0 for each seat of a duplicate match, else its own. */
export function streamSeat(dealing, seat) {
  return validateMatchDealing(dealing) === DUPLICATE ? 0 : seat;
}

/**
 * The commitment to a server seed and a dealing: SHA-256("yacht-daily/match-commit/v2|" +
 * dealing + "|" ‖ seed bytes) for a match dealt per turn (v2: per-turn or duplicate), SHA-256(
 * "yacht-daily/match-commit/v1|" ‖ seed bytes) for one dealt sequentially (v1).
 */
export async function matchCommitment(seedHex, dealing = SEQUENTIAL) {
  const prefix = validateMatchDealing(dealing) === SEQUENTIAL ? MATCH_COMMIT_DOMAIN
    : `${MATCH_COMMIT_V2_DOMAIN}|${dealing}`;
  return sha256Hex(concat(encoder.encode(`${prefix}|`), hexToBytes(seedHex)));
}

/** The dealing of a well-formed result's match: its `dealing` (v2), else sequential. */
export function resultDealing(result) {
  return result.type === MATCH_V2_TYPE ? result.dealing : SEQUENTIAL;
}

/** The HMAC message of block `index` of a seat's stream. */
export function seatBlockMessage(matchId, ruleset, seat, clientSeeds, index) {
  return `${MATCH_DICE_DOMAIN}|${matchId}|${ruleset}|${seat}|${clientSeeds.join(",")}|${index}`;
}

/** The first `count` dice of a seat's stream. */
export async function seatDice(seedHex, clientSeeds, matchId, seat, ruleset, count) {
  const seed = hexToBytes(seedHex);
  const dice = [];
  for (let block = 0; dice.length < count; block++) {
    const message = seatBlockMessage(matchId, ruleset, seat, clientSeeds, block);
    dice.push(...diceFromBlock(await hmacSha256(seed, message)));
  }
  return dice.slice(0, count);
}

/**
 * Every slot a seat's game can take under either dealing (3 per box): element n is slot n,
 * the seat's dice 5n..5n+4. `replay` picks each roll's slot by the match's dealing.
 */
export async function seatRolls(seedHex, clientSeeds, matchId, seat, ruleset) {
  const count = slotsOfGame(SHEETS[ruleset].boxes.length);
  return slotsOf(await seatDice(seedHex, clientSeeds, matchId, seat, ruleset,
    DICE_PER_ROLL * count), count);
}

/** What is wrong with one seat of a match result. */
function seatProblems(position, seat, count) {
  if (!isObject(seat)) return ["not a JSON object"];
  const missing = SEAT_KEYS.filter((k) => !Object.hasOwn(seat, k));
  const extra = Object.keys(seat).filter((k) => !SEAT_KEYS.includes(k)).sort();
  if (missing.length || extra.length) {
    return [...(missing.length ? ["missing " + missing.join(", ")] : []),
      ...(extra.length ? ["unexpected " + extra.join(", ")] : [])];
  }
  const problems = [];
  const nonEmpty = (v) => typeof v === "string" && v.length > 0;
  if (seat.seat !== position) {
    problems.push(`seat number ${pythonRepr(seat.seat)} ≠ its position ${position}`);
  }
  if (seat.kind === "human") {
    if (!(nonEmpty(seat.player) && seat.bot === null)) {
      problems.push("a human seat has a player and a null bot");
    }
  } else if (seat.kind === "bot") {
    if (!(nonEmpty(seat.bot) && seat.player === null)) {
      problems.push("a bot seat has a bot and a null player");
    }
  } else {
    problems.push(`kind ${pythonRepr(seat.kind)} is not human or bot`);
  }
  if (!nonEmpty(seat.name)) problems.push(`name ${pythonRepr(seat.name)} is not a non-empty string`);
  if (!isHex(seat.transcript_sha256, 64)) {
    problems.push(`transcript_sha256 ${pythonRepr(seat.transcript_sha256)} is not 64 hex digits`);
  }
  if (!Number.isInteger(seat.total) || seat.total < 0) {
    problems.push(`total ${pythonRepr(seat.total)} is not a count`);
  }
  if (seat.rank !== null && !(Number.isInteger(seat.rank) && seat.rank >= 1 && seat.rank <= count)) {
    problems.push(`rank ${pythonRepr(seat.rank)} is not null or 1..${count}`);
  }
  return problems;
}

/** What is wrong with a match result's fields and values (empty: nothing). */
export function matchProblems(result) {
  const v2 = isObject(result) && result.type === MATCH_V2_TYPE;
  const problems = formatProblems(result, v2 ? MATCH_V2_TYPE : MATCH_TYPE);
  if (problems.length) {
    return problems[0] === "not a JSON object" ? ["the result is not a JSON object"] : problems;
  }
  if (!MATCH_TYPES.includes(result.type)) {
    problems.push(`type ${pythonRepr(result.type)} ≠ ${MATCH_TYPE} or ${MATCH_V2_TYPE}`);
  }
  if (v2 && !V2_DEALINGS.includes(result.dealing)) {
    problems.push(`dealing ${pythonRepr(result.dealing)} is not `
      + V2_DEALINGS.map(pythonRepr).join(" or "));
  }
  if (!TOKEN.test(result.match)) {
    problems.push(`match ${pythonRepr(result.match)} is not 1 to 64 characters of ${TOKEN_TEXT}`);
  }
  if (!MATCH_KINDS.includes(result.kind)) {
    problems.push(`kind ${pythonRepr(result.kind)} is not practice, computer or table`);
  }
  if (!Object.hasOwn(SHEETS, result.ruleset)) {
    problems.push(`ruleset ${pythonRepr(result.ruleset)} is no known sheet`);
  }
  if (result.epoch < 1) problems.push(`epoch ${result.epoch} is not a positive number`);
  if (result.ended_at < result.created_at) {
    problems.push(`ended_at ${result.ended_at} is before created_at ${result.created_at}`);
  }
  const seeds = result.client_seeds;
  if (seeds.length < 1 || seeds.length > MAX_SEATS || !seeds.every(isClientSeed)) {
    problems.push(`client_seeds ${pythonRepr(seeds)} is not 1 to ${MAX_SEATS} client seeds `
      + `of 1 to 64 characters of ${TOKEN_TEXT}`);
  }
  const seats = result.seats;
  if (seats.length < 1 || seats.length > MAX_SEATS) {
    problems.push(`${seats.length} seats (a match has 1 to ${MAX_SEATS})`);
  } else {
    seats.forEach((seat, position) => {
      for (const problem of seatProblems(position, seat, seats.length)) {
        problems.push(`seat ${position}: ${problem}`);
      }
    });
  }
  if (!result.winners.every((w) => Number.isInteger(w))) {
    problems.push(`winners ${pythonRepr(result.winners)} is not a list of seat numbers`);
  }
  if (!problems.length) {
    const humans = seats.filter((seat) => seat.kind === "human").length;
    const n = seats.length;
    const fits = { practice: n === 1 && humans === 1,
      computer: n >= 2 && n <= MAX_SEATS && humans === 1,
      table: n >= 2 && n <= MAX_SEATS && humans >= 1 }[result.kind];
    if (!fits) {
      problems.push(`${n} seats with ${humans} humans do not make a ${result.kind} match `
        + "(practice: 1 human, computer: 1 human and 1 to 5 bots, table: 2 to 6 seats "
        + "with at least one human)");
    } else if (humans !== seeds.length) {
      problems.push(`${humans} human seats but ${seeds.length} client seeds`);
    }
  }
  return problems;
}

/** Values as [2,1,null]. */
function listed(values) {
  return "[" + values.map((v) => (v === null ? "null" : String(v))).join(",") + "]";
}

/**
 * One seat replayed on the stream it reads (its own; seat 0's in a duplicate match), its
 * transcript hash and total: {checks, complete}.
 */
async function seatChecks(result, seat, transcript) {
  const prefix = `seat ${seat.seat} `;
  const dealing = resultDealing(result);
  const rolls = await seatRolls(result.server_seed, result.client_seeds, result.match,
    streamSeat(dealing, seat.seat), result.ruleset);
  const replayed = replay(transcript, result.ruleset, rolls, slotRule(dealing),
    { explain: true });
  const checks = replayed.checks.filter((c) => c.name !== "game complete")
    .map((c) => ({ ...c, name: prefix + c.name }));
  const complete = Object.keys(replayed.boxes).length === SHEETS[result.ruleset].boxes.length;
  const encoded = Array.isArray(transcript) ? safeCanonicalBytes(transcript) : null;
  if (encoded === null) {
    checks.push({ name: prefix + "transcript hash", ok: false,
      detail: "the transcript has no canonical JSON (not a list, or holds a float)" });
  } else {
    const digest = await sha256Hex(encoded);
    checks.push({ name: prefix + "transcript hash", ok: digest === seat.transcript_sha256,
      detail: `SHA-256 of the transcript ${compared(digest, seat.transcript_sha256)} `
        + `seat ${seat.seat}'s transcript_sha256` });
  }
  const t = totals(result.ruleset, replayed.boxes, replayed.extra);
  const same = t.total === seat.total;
  checks.push({ name: prefix + "total", ok: same, detail: `recomputed ${t.total} (upper `
    + `${t.upper} + bonus ${t.upper_bonus} + lower ${t.lower} + extra ${t.extra_bonus}) `
    + `${same ? "=" : "≠"} seat ${seat.seat}'s total ${seat.total}` });
  return { checks, complete };
}

/** Ranks from the totals (ties share a rank; everyone tied at the top wins), none unfinished. */
function ranksCheck(result) {
  const seats = result.seats;
  const scores = seats.map((seat) => seat.total);
  const recorded = seats.map((seat) => seat.rank);
  const expected = result.finished
    ? scores.map((mine) => 1 + scores.filter((other) => other > mine).length)
    : seats.map(() => null);
  const winners = result.finished ? seats.filter((s, i) => expected[i] === 1).map((s) => s.seat)
    : [];
  const shown = `ranks ${listed(expected)} and winners ${listed(winners)} from totals `
    + listed(scores);
  const ok = recorded.every((rank, i) => rank === expected[i])
    && listed(result.winners) === listed(winners);
  return ok ? { name: "ranks", ok: true, detail: `recorded ${shown}` }
    : { name: "ranks", ok: false, detail: `recorded ranks ${listed(recorded)} and winners `
      + `${listed(result.winners)} ≠ ${shown}` };
}

/**
 * The result and the seats' transcripts (seat order) of a GET /api/v1/matches/<id> answer:
 * {match: {…, result, seats: [{…, transcript}]}} or the match itself.
 */
export function matchAnswerParts(answer) {
  const state = isObject(answer) && Object.hasOwn(answer, "match") ? answer.match : answer;
  if (!isObject(state)) return { result: null, transcripts: null };
  const transcripts = Array.isArray(state.seats)
    ? state.seats.map((seat) => (isObject(seat) ? seat.transcript : undefined)) : null;
  return { result: state.result ?? null, transcripts };
}

/**
 * Verify a match (a practice game, a game against the computer, a table) from the answer of
 * GET /api/v1/matches/<id> after its end, with `publicKeyHex` the key of the epoch that owns
 * the date it ended (see `matchEpochKey`); `commitment` (the one the page showed before the
 * first roll) and `clientSeed` (the player's), when given, add "commitment shown" and "your
 * client seed". Returns [{name, ok, detail}], the same checks as
 * fairness.audit.check_match and verify.py: "match format", "match signature", "commitment",
 * "transcripts", per seat i "seat i roll n" / "seat i box b" / "seat i transcript hash" /
 * "seat i total", then "finished" and "ranks".
 */
export async function verifyMatch(answer, publicKeyHex, { commitment: shown = null,
  clientSeed = null } = {}) {
  const { result, transcripts } = matchAnswerParts(answer);
  if (result === null) {
    return [{ name: "match format", ok: false, detail: "no result: the match has not ended" }];
  }
  const problems = matchProblems(result);
  const checks = [aggregate("match format", problems,
    `a ${problems.length ? MATCH_TYPE : result.type} result with exactly its fields, well typed`)];
  if (problems.length) return checks;
  if (!(await ed25519Supported())) {
    checks.push({ name: "match signature", ok: null, detail: NO_ED25519 });
  } else if (!publicKeyHex) {
    checks.push({ name: "match signature", ok: false,
      detail: "no epoch key to check the signature with" });
  } else {
    const valid = await signatureOk(publicKeyHex, result);
    checks.push({ name: "match signature", ok: valid, detail: `sig ${short(result.sig)} is `
      + `${valid ? "" : "not "}a valid Ed25519 signature by key ${short(publicKeyHex)} of the `
      + "result's fields" });
  }
  // The commitment binds the dealing: a v2 result's is the v2 formula, a v1 result's the v1.
  const commitment = await matchCommitment(result.server_seed, resultDealing(result));
  checks.push({ name: "commitment", ok: commitment === result.commitment,
    detail: `commitment of server seed ${short(result.server_seed)}: `
      + `${compared(commitment, result.commitment)} the result's commitment` });
  if (shown !== null) {
    checks.push({ name: "commitment shown", ok: shown === result.commitment,
      detail: `the result's commitment ${compared(result.commitment, shown)} the commitment `
        + "shown before the first roll" });
  }
  if (clientSeed !== null) {
    const index = result.client_seeds.indexOf(clientSeed);
    checks.push({ name: "your client seed", ok: index >= 0, detail: index >= 0
      ? `client seed ${clientSeed} is client_seeds[${index}]`
      : `client seed ${clientSeed} is not in client_seeds` });
  }
  const seats = result.seats;
  const fits = Array.isArray(transcripts) && transcripts.length === seats.length;
  checks.push({ name: "transcripts", ok: fits, detail: fits
    ? `a transcript for each of the ${seats.length} seats`
    : `${Array.isArray(transcripts) ? transcripts.length : "no list of"} transcripts for `
      + `${seats.length} seats` });
  if (!fits) return checks;
  let complete = 0;
  for (const [position, seat] of seats.entries()) {
    const one = await seatChecks(result, seat, transcripts[position]);
    checks.push(...one.checks);
    complete += one.complete ? 1 : 0;
  }
  const flag = result.finished ? "true" : "false";
  const ended = result.finished === (complete === seats.length);
  checks.push({ name: "finished", ok: ended, detail: `${complete} of ${seats.length} seats have `
    + `every box filled, ${ended ? `as finished ${flag} says` : `but finished is ${flag}`}` });
  checks.push(ranksCheck(result));
  return checks;
}

/**
 * The key of the epoch that owns the UTC date a match ended, from the ledger (the entries or
 * the /ledger response): {check, key}, key null when no epoch covers it or it is not the
 * result's epoch.
 */
export function matchEpochKey(ledger, result) {
  const entries = Array.isArray(ledger) ? ledger : ledger.entries;
  const ended = isObject(result) && typeof result.ended_at === "string" ? result.ended_at : null;
  const date = ended ? ended.slice(0, 10) : null;
  const epoch = date ? epochCovering(readLedger(entries), date) : null;
  if (!epoch) {
    return { key: null, check: { name: "match epoch", ok: false,
      detail: `no published epoch covers ${date === null ? "None" : date}` } };
  }
  if (epoch.epoch !== result.epoch) {
    return { key: null, check: { name: "match epoch", ok: false, detail: `the match ended on `
      + `${date}, a day of epoch ${epoch.epoch}, not of epoch ${pythonRepr(result.epoch)}` } };
  }
  return { key: epoch.public_key, check: { name: "match epoch", ok: true, detail: `the match `
    + `ended on ${date}, a day of epoch ${epoch.epoch}, whose key ${short(epoch.public_key)} `
    + "signs its result" } };
}

/** verifyMatch with the key from the ledger: the ledger's checks, "match epoch", the match. */
export async function verifyMatchInLedger(ledger, answer, noted = {}) {
  const entries = Array.isArray(ledger) ? ledger : ledger.entries;
  const checks = await checkLedger(entries);
  const { key, check } = matchEpochKey(entries, matchAnswerParts(answer).result);
  checks.push(check);
  checks.push(...(await verifyMatch(answer, key, noted)));
  return checks;
}

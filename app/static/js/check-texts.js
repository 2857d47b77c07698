// The detail lines of the verification checks in the page language, from one catalogue
// (static/data/check-texts.json) that every verifier's English text is matched against:
// fairness/audit, verify.py and fairness.js write the same English lines, and the page reads
// each line's values out of it and writes them into the reader's language. The checks' names
// are in the page's messages (`check_<name>`).

import { t } from "./i18n.js";

const PLACEHOLDER = /\{(\*?)(\w+)\}/g;

/** `text` with every character a regular expression gives a meaning to escaped. */
function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A matcher for one English template: its regular expression and its placeholders. */
function compile(entry) {
  const names = [];
  let pattern = "";
  let last = 0;
  for (const match of entry.en.matchAll(PLACEHOLDER)) {
    pattern += escapeRegExp(entry.en.slice(last, match.index)) + "(.+?)";
    names.push({ name: match[2], nested: match[1] === "*" });
    last = match.index + match[0].length;
  }
  pattern += escapeRegExp(entry.en.slice(last));
  return { ...entry, names, regex: new RegExp(`^${pattern}$`, "s") };
}

/**
 * A function that writes a check's English detail line in `lang`: the first template whose
 * English text matches, filled with the values read out of the line (a value that is itself a
 * detail line must be in the catalogue too); a line of several failures ("…; …") part by part;
 * a part no template matches stays as it is.
 */
export function detailTranslator(catalogue, lang) {
  const entries = catalogue.texts.map(compile);

  /** One detail (no "; " list) in `lang`, or null when no template matches it wholly. */
  function one(text) {
    for (const entry of entries) {
      const found = entry.regex.exec(text);
      if (!found || !entry[lang]) {
        continue;
      }
      const values = {};
      const known = entry.names.every(({ name, nested }, index) => {
        values[name] = nested ? complete(found[index + 1]) : found[index + 1];
        return values[name] !== null;
      });
      if (known) {
        return entry[lang].replace(PLACEHOLDER, (match, star, name) => values[name] ?? match);
      }
    }
    return null;
  }

  /** The line in `lang` when all of it is in the catalogue, else null. */
  function complete(text) {
    const whole = one(text);
    if (whole !== null) {
      return whole;
    }
    const parts = text.split("; ").map(one);
    return parts.length > 1 && parts.every((part) => part !== null) ? parts.join("; ") : null;
  }

  return function translate(text) {
    if (lang === "en") {
      return text;
    }
    return complete(text) ?? text.split("; ").map((part) => one(part) ?? part).join("; ");
  };
}

/**
 * A check's name in the page language: "roll 3" → "Roll 4", "box ones" → "Box Ones" (by
 * `boxNames`), "seat 1 total" → "<seatName(1)>: Total"; a name without a message stays as it is.
 */
export function checkLabel(name, { boxNames = {}, seatName = (index) => String(index) } = {}) {
  const seat = /^seat (\d+) (.+)$/.exec(name);
  if (seat) {
    return t("checkSeat", { seat: seatName(Number(seat[1])),
      check: checkLabel(seat[2], { boxNames, seatName }) });
  }
  const numbered = /^(roll|action) (\d+)$/.exec(name);
  if (numbered) {
    return t(numbered[1] === "roll" ? "checkRoll" : "checkAction", { n: Number(numbered[2]) + 1 });
  }
  const box = /^box (.+)$/.exec(name);
  if (box) {
    return t("checkBox", { box: boxNames[box[1]] ?? box[1] });
  }
  const key = `check_${name.replaceAll(" ", "_")}`;
  const label = t(key);
  return label === key ? name : label;
}

const CATALOGUE = new URL("../data/check-texts.json", import.meta.url);

/** The detail lines' translator into `lang`, from the catalogue; `fallback` (the English
 * lines as they are) when the catalogue cannot be loaded. */
export async function loadDetailTranslator(lang, fallback = (detail) => detail) {
  try {
    const response = await fetch(CATALOGUE);
    return detailTranslator(await response.json(), lang);
  } catch {
    return fallback;
  }
}

// The page's translated sentences, handed over by the server as JSON (#messages, and
// #api-errors for the API's error codes), and the numbers, lists and ranks written as the
// page language writes them (Intl): "42,2" and "1 234" in French and Hungarian, one minus sign
// "−"; ranks "1st" in English, "1er" in French, "1." in Hungarian.

let cache = null;
let apiErrors = null;

function readJson(id) {
  const block = document.getElementById(id);
  return block ? JSON.parse(block.textContent) : {};
}

/** All messages of the current page language. */
export function messages() {
  if (cache === null) {
    cache = readJson("messages");
  }
  return cache;
}

/** The page-language sentence for the API error `code` (#api-errors), or null if it has none. */
export function apiErrorMessage(code) {
  if (apiErrors === null) {
    apiErrors = readJson("api-errors");
  }
  return Object.hasOwn(apiErrors, code) ? apiErrors[code] : null;
}

/** The message `key` with each `{name}` replaced by `values[name]`. */
export function t(key, values = {}) {
  return fill(messages()[key] ?? key, values);
}

/** `template` with each `{name}` replaced by `values[name]`, a number in the page's format. */
function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (match, name) => {
    if (!Object.hasOwn(values, name)) {
      return match;
    }
    const value = values[name];
    return typeof value === "number" ? formatNumber(value) : String(value);
  });
}

/** The form of `forms` (a message's forms by CLDR category) that `rules` select for `count`. */
function pickForm(forms, key, rules, count) {
  if (typeof forms !== "object" || forms === null) {
    return forms ?? key;
  }
  return forms[rules.select(count)] ?? forms.other;
}

/**
 * The message `key` about the number `count`, in the plural form the page language gives it
 * ("1 roll left", "3 rolls left"; French "0 point"), `{n}` being `count` in the page's number
 * format. With `digits`, `count` is written with that many decimals and its form is the one
 * of that written number: "1.0 points" in English, "1,5 point" in French.
 */
export function plural(key, count, values = {}, { digits = null } = {}) {
  const decimals = digits === null ? {} : { minimumFractionDigits: digits,
    maximumFractionDigits: digits };
  const rules = new Intl.PluralRules(language(), decimals);
  const n = digits === null ? count : formatDecimal(count, digits);
  return fill(pickForm(messages()[key], key, rules, count), { n, ...values });
}

/** `n` as a rank in the page language: "1st", "2nd" ("1er", "2e" in French, "1." in Hungarian). */
export function ordinal(n) {
  const rules = new Intl.PluralRules(language(), { type: "ordinal" });
  return fill(pickForm(messages().ordinal, "{n}", rules, n), { n });
}

/** `items` (strings or numbers) as the page language lists them: "2, 3 and 5" ("2, 3 et 5"). */
export function listText(items) {
  const texts = items.map((item) => (typeof item === "number" ? formatNumber(item) : item));
  return new Intl.ListFormat(language(), { type: "conjunction" }).format(texts);
}

/**
 * A text the API wrote in the page language (a Joker restriction…) with the spaces the page
 * language sets: in French a narrow no-break space before ": ; ! ? »" and after "«" (English and
 * Hungarian set none).
 */
export function typeset(text) {
  if (language() !== "fr") {
    return text;
  }
  return text.replace(/[ \u00a0]+([:;!?»])/g, "\u202f$1").replace(/«[ \u00a0]+/g, "«\u202f");
}

/** A computer opponent's level (a `strategy.bots` id: "easy"…) named in the page language. */
export function levelName(level) {
  return messages().levels?.[level] ?? level;
}

/** The page language ("en", "fr" or "hu"). */
export function language() {
  return document.documentElement.lang || "en";
}

const MINUS = "\u2212";

/**
 * `value` in the page language's number format (Intl.NumberFormat `options`), a negative one
 * with the true minus sign "−" as every page writes it: "1 234,5" and "−3" in French.
 */
export function formatNumber(value, options = {}) {
  return new Intl.NumberFormat(language(), options).formatToParts(value)
    .map((part) => (part.type === "minusSign" ? MINUS : part.value))
    .join("");
}

/**
 * A figure with exactly `digits` decimals in the page language, never grouped (as the skill
 * board, the templates and the share text write a skill figure): 1334.9 → "1334,9" in French.
 */
export function formatDecimal(value, digits) {
  return formatNumber(value, { minimumFractionDigits: digits, maximumFractionDigits: digits,
    useGrouping: false });
}

/**
 * A game's skill figure (its review's `loss`) to the tenth, half up from its hundredths, as
 * every page and the skill board round it (app/boards/figures.py): 123.45 and 123.449 both give
 * 123.5.
 */
export function lossTenths(loss) {
  const centipoints = Math.max(0, Math.floor(loss * 100 + 0.5));
  return Math.floor((centipoints + 5) / 10) / 10;
}

/** A game's skill figure to the tenth (`lossTenths`) in the page language: "123.5", "123,5". */
export function lossText(loss) {
  return formatDecimal(lossTenths(loss), 1);
}

// The page's translated sentences, handed over by the server as JSON (#messages, and
// #api-errors for the API's error codes).

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

/** `template` with each `{name}` replaced by `values[name]`. */
function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (match, name) =>
    Object.hasOwn(values, name) ? String(values[name]) : match,
  );
}

/** The template of `key` in the page language's plural form for `count` (Intl.PluralRules). */
function pluralTemplate(key, count) {
  const forms = messages()[key];
  if (typeof forms !== "object" || forms === null) {
    return forms ?? key;
  }
  const category = new Intl.PluralRules(language()).select(count);
  return forms[category] ?? forms.other;
}

/**
 * The message `key` about the number `count`, in the plural form the page language gives it
 * ("1 roll left", "3 rolls left"; French "0 point"), `{n}` being `count`.
 */
export function plural(key, count, values = {}) {
  return fill(pluralTemplate(key, count), { n: count, ...values });
}

/** The page language ("en" or "fr"). */
export function language() {
  return document.documentElement.lang || "en";
}

/**
 * A game's skill figure (its review's `loss`) to the tenth, half up from its hundredths, as
 * every page and the skill board round it (app/boards/figures.py): 123.45 and 123.449 both give
 * "123.5".
 */
export function lossText(loss) {
  const centipoints = Math.max(0, Math.floor(loss * 100 + 0.5));
  const tenths = Math.floor((centipoints + 5) / 10);
  return `${Math.floor(tenths / 10)}.${tenths % 10}`;
}

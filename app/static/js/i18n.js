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
  const template = messages()[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (match, name) =>
    Object.hasOwn(values, name) ? String(values[name]) : match,
  );
}

/** "1 roll left" / "3 rolls left": the singular message for 1, the plural one otherwise. */
export function plural(count, oneKey, manyKey) {
  return count === 1 ? t(oneKey, { n: count }) : t(manyKey, { n: count });
}

/** The page language ("en" or "fr"). */
export function language() {
  return document.documentElement.lang || "en";
}

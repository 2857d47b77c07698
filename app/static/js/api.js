// A small client for the JSON API (docs/api.md): JSON in and out, typed errors, safe retries.

import { apiErrorMessage, t, typeset } from "./i18n.js";

const BASE = "/api/v1";
const RETRYABLE_STATUSES = new Set([502, 503, 504]);
const MAX_RETRY_WAIT_MS = 4000;
const COMPUTING_WAIT_MS = 10 * 60 * 1000; // the largest sheet's table builds in about a minute
const COMPUTING_PAUSE_SECONDS = 10; // app/api/errors.py COMPUTING_RETRY_AFTER
// A request refused for load (503 `overloaded`, app/observability/admission.py) never reached
// the app: it is sent again as it was, after the server's Retry-After, a few times at most.
const OVERLOADED = "overloaded";
const OVERLOADED_RETRIES = 5;
const BUSY_FALLBACK = "The server is busy; trying again in a moment…";

/**
 * An API refusal (`status` > 0) or a network failure (`status` 0). Its message is the page's
 * own sentence for `code` in the page language (`translated`), else the one given (the API's).
 */
export class ApiError extends Error {
  constructor(status, code, message, body, retryAfterSeconds = null) {
    const translated = apiErrorMessage(code);
    super(translated ?? typeset(message));
    this.status = status;
    this.code = code;
    this.body = body;
    this.translated = translated !== null;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** What to tell the player about a failed request: the page's sentence for a known error. */
export function errorText(error) {
  if (error instanceof ApiError && error.translated) {
    return error.message;
  }
  return t("errorServer", { message: error.message });
}

function withLanguage(path) {
  const separator = path.includes("?") ? "&" : "?";
  const lang = encodeURIComponent(document.documentElement.lang || "en");
  return `${BASE}${path}${separator}lang=${lang}`;
}

function pause(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function retryAfterSeconds(response) {
  const header = Number(response?.headers.get("Retry-After"));
  return Number.isFinite(header) && header > 0 ? header : null;
}

function retryDelay(response, attempt) {
  const header = retryAfterSeconds(response);
  const fallback = 300 * 2 ** attempt;
  return Math.min(header !== null ? header * 1000 : fallback, MAX_RETRY_WAIT_MS);
}

async function readBody(response) {
  const text = await response.text();
  if ((response.headers.get("Content-Type") || "").includes("json")) {
    try {
      return JSON.parse(text);
    } catch {
      return null;
    }
  }
  return text;
}

/**
 * The page's message area (its status line), told while a request waits out the server's
 * load; whatever it said before comes back unless the page wrote something else meanwhile.
 */
function busyNotice() {
  let area = null;
  let before = "";
  let shown = null;
  return {
    show() {
      area ??= document.querySelector("main .status-line, main [role='status']");
      if (area === null) return;
      if (shown === null) before = area.textContent;
      shown = apiErrorMessage(OVERLOADED) ?? BUSY_FALLBACK;
      area.textContent = shown;
    },
    clear() {
      if (area !== null && shown !== null && area.textContent === shown) {
        area.textContent = before;
      }
    },
  };
}

/**
 * Send one request (with `headers` besides Accept) and return its body (parsed JSON, or
 * text). Network failures and 502-504
 * are retried `retries` times with the very same body: the action number in it makes a
 * retried roll harmless. A 503 `overloaded` is waited out (Retry-After, up to twice as long
 * at random, so that refused pages do not come back together) up to OVERLOADED_RETRIES times,
 * saying so in the page's message area.
 */
export async function request(method, path, options = {}) {
  const busy = busyNotice();
  try {
    return await sendWithRetries(method, path, options, busy);
  } finally {
    busy.clear();
  }
}

async function sendWithRetries(method, path, { body, retries = 0, headers = {} } = {}, busy) {
  const init = { method, credentials: "same-origin",
    headers: { Accept: "application/json", ...headers } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  for (let attempt = 0, busyWaits = 0; ; attempt += 1) {
    let response;
    try {
      response = await fetch(withLanguage(path), init);
    } catch (error) {
      if (attempt < retries) {
        await pause(retryDelay(null, attempt));
        continue;
      }
      throw new ApiError(0, "network", error.message, null);
    }
    const data = await readBody(response);
    const error = !response.ok && data && typeof data === "object" ? data.error || {} : {};
    if (error.code === OVERLOADED && busyWaits < OVERLOADED_RETRIES) {
      busy.show();
      await pause((retryAfterSeconds(response) ?? 1) * 1000 * (1 + Math.random()));
      busyWaits += 1;
      attempt -= 1; // a refusal for load is not one of the `retries`
      continue;
    }
    if (RETRYABLE_STATUSES.has(response.status) && attempt < retries) {
      await pause(retryDelay(response, attempt));
      continue;
    }
    if (!response.ok) {
      throw new ApiError(
        response.status,
        error.code || `http-${response.status}`,
        error.message || response.statusText,
        data,
        retryAfterSeconds(response),
      );
    }
    return data;
  }
}

/** GET a JSON document. */
export function getJson(path, options = {}) {
  return request("GET", path, options);
}

/**
 * GET what the coach computes (a game's review). While the strategy tables are still being
 * computed (503 `tables-not-ready`, which a worker answers for a while after it starts),
 * `onWaiting` is called and the request is sent again after the server's Retry-After, for
 * up to COMPUTING_WAIT_MS; any other failure is thrown.
 */
export async function getComputed(path, onWaiting) {
  const deadline = Date.now() + COMPUTING_WAIT_MS;
  for (;;) {
    try {
      return await request("GET", path);
    } catch (error) {
      const wait = (error.retryAfterSeconds ?? COMPUTING_PAUSE_SECONDS) * 1000;
      if (error.code !== "tables-not-ready" || Date.now() + wait > deadline) {
        throw error;
      }
      onWaiting();
      await pause(wait);
    }
  }
}

/** POST a JSON body. */
export function postJson(path, body, options = {}) {
  return request("POST", path, { ...options, body });
}

// The Verify page: recompute a game in this browser with fairness.js, from published data
// (the ledger, the revealed seed, the inclusion proof) and the receipt and transcript saved on
// this device when there are any. No verdict of the server is used. It counts a game's checks
// as verify.py's game mode does (fairness.js verifyGame = fairness/audit check_game); a v2
// game's place in its day's log, which verify.py checks in its log mode, is counted apart.
// What cannot be verified (no id, not an id, an id the server does not know, a date not
// revealed yet) is said next to the field it came from, and nothing else on the page changes.

import { ApiError, errorText, getJson } from "./api.js";
import { checkLabel, loadDetailTranslator } from "./check-texts.js";
import { longDate, utcTime } from "./dates.js";
import { findGossipLine, RECEIPT_V2_TYPE, verifyGame, verifyReceiptInLog } from "./fairness.js";
import { language, messages, plural, t } from "./i18n.js";
import { savedGame, savedGames } from "./store.js";

const form = document.querySelector("[data-verify-form]");
const localSelect = form.querySelector("[data-local-games]");
const gameInput = form.querySelector("[data-game-input]");
const output = document.querySelector("[data-verify-output]");
const title = output.querySelector("[data-verify-title]");
const verdict = output.querySelector("[data-verdict]");
const source = output.querySelector("[data-source]");
const list = output.querySelector("[data-checks]");
const summary = output.querySelector("[data-summary]");
const allChecks = output.querySelector("[data-all-checks]");
const logChecks = output.querySelector("[data-log-checks]");
const lang = language();
// A game's (or a match's) id: 32 hexadecimal digits, not part of a longer run of them.
const HEX_ID = /(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])/i;
const MATCH_LINK = /\/(practice|matches)\/[0-9a-f]{32}/i;
const TABLE_LINK = /\/(tables|t)\/[\w-]+/i;
const LOG_LINE = /\blog \d{4}-\d{2}-\d{2}\//;
const MALFORMED_SHOWN = 40; // characters of a malformed entry quoted back to the reader

// The page's own sentences (#verify-messages) join the script messages t() and plural() read.
Object.assign(messages(), JSON.parse(document.getElementById("verify-messages").textContent));

const sheetNames = JSON.parse(document.getElementById("sheet-names").textContent);
const boxNames = JSON.parse(document.getElementById("box-names").textContent);
let translateDetail = (detail) => detail;

function sheetName(ruleset) {
  return sheetNames[ruleset] ?? ruleset;
}

function fillLocalGames() {
  const games = Object.values(savedGames()).sort((a, b) => (a.date < b.date ? 1 : -1));
  for (const game of games) {
    const option = document.createElement("option");
    option.value = game.id;
    option.textContent =
      `${longDate(game.date, lang)} · ${sheetName(game.ruleset)} · ${game.total}`;
    localSelect.append(option);
  }
  if (games.length === 0) {
    localSelect.options[0].textContent = t("noLocalGames");
    localSelect.disabled = true;
  }
}

/** Say `text` in the verdict; the checks of a game verified before are taken away. */
function showMessage(text, kind) {
  output.hidden = false;
  verdict.className = `verdict ${kind}`;
  verdict.textContent = text;
  list.replaceChildren();
  summary.hidden = true;
  allChecks.hidden = true;
  logChecks.hidden = true;
}

/** The message paragraph under `control` (the id field or the saved games' list). */
function messageOf(control) {
  return form.querySelector(`[data-field-message="${control.id}"]`);
}

/** Take every field's message away. */
function clearFieldMessages() {
  for (const control of [gameInput, localSelect]) {
    const message = messageOf(control);
    message.hidden = true;
    message.replaceChildren();
    message.classList.remove("form-error");
    control.removeAttribute("aria-invalid");
    control.removeAttribute("aria-describedby");
  }
}

/**
 * Say `parts` (text and elements) under `control`: an error marks the field invalid and, when
 * `focus` (the reader asked from the form), keeps the focus in it; a status only informs.
 */
function sayAt(control, parts, { error = true, focus = false } = {}) {
  clearFieldMessages();
  const message = messageOf(control);
  message.replaceChildren(...parts);
  message.classList.toggle("form-error", error);
  message.hidden = false;
  control.setAttribute("aria-describedby", message.id);
  if (error) {
    control.setAttribute("aria-invalid", "true");
    if (focus) {
      control.focus();
    }
  }
}

/** A message's text with `{command}` written as code. */
function withCommand(text, command) {
  const [before, after = ""] = text.split("{command}");
  const code = document.createElement("code");
  code.className = "mono";
  code.textContent = command;
  return [before, code, after];
}

/** A link to `href` reading `text`. */
function link(href, text) {
  const anchor = document.createElement("a");
  anchor.href = href;
  anchor.textContent = text;
  return anchor;
}

/**
 * What the reader asked for: {kind: "game" | "match", id}, or what makes it no game's id:
 * {kind: "missing" | "log" | "table"} or {kind: "malformed", text}.
 */
function readRequest(text) {
  const typed = text.trim();
  if (!typed) {
    return { kind: "missing" };
  }
  if (findGossipLine(typed) || LOG_LINE.test(typed)) {
    return { kind: "log" };
  }
  if (TABLE_LINK.test(typed)) {
    return { kind: "table" };
  }
  const id = HEX_ID.exec(typed);
  if (!id) {
    const shown = typed.length > MALFORMED_SHOWN ? `${typed.slice(0, MALFORMED_SHOWN)}…` : typed;
    return { kind: "malformed", text: shown };
  }
  return { kind: MATCH_LINK.test(typed) ? "match" : "game", id: id[0].toLowerCase() };
}

/** Tell what the match `id` is and where it is checked; say the id is unknown if it is not. */
async function sayMatch(id, control, focus) {
  let match;
  try {
    ({ match } = await getJson(`/matches/${encodeURIComponent(id)}`));
  } catch (error) {
    const unknown = error instanceof ApiError && error.status === 404;
    sayAt(control, [unknown ? t("idUnknown", { id }) : errorText(error)], { focus });
    return;
  }
  const command = `python3 verify.py match ${window.location.origin}/api/v1/matches/${id}`;
  const parts = [t(match.kind === "table" ? "idTable" : "idMatch"), " "];
  if (match.kind !== "table") {
    parts.push(link(`/practice/${id}`, t("openMatch")), ". ");
  }
  sayAt(control, [...parts, ...withCommand(t("idMatchScript"), command)], { focus });
}

/** True when every check of `checks` passed (and there is at least one). */
function allPassed(checks) {
  return checks.length > 0 && checks.every((check) => check.ok === true);
}

/**
 * What a player cares about, in plain words: their rolls came from the revealed seed, their
 * total is right, their game is in the published results (and in its day's log, `inLog`, for
 * a v2 game). Each line is true or false.
 */
function summaryLines(checks, receipt, inLog) {
  const named = (pattern) => checks.filter((check) => pattern.test(check.name));
  const rolls = named(/^roll \d+$/);
  const boxes = named(/^(box |action |transcript$|game complete$)/);
  const seed = named(/^seed$/);
  const ledger = named(/^(ledger |reveal|seed chains|seed successions)/);
  const total = named(/^(total|transcript hash|receipt signature)$/);
  const published = named(/^(inclusion proof|proof size)$/);
  const line = (group, key, count) => {
    const ok = allPassed(group);
    const name = `${key}${ok ? "Ok" : "Bad"}`;
    return [ok, count === undefined ? t(name) : plural(name, count)];
  };
  return [
    line([...rolls, ...seed], "sumRolls", rolls.length),
    line(boxes, "sumBoxes"),
    line(total, "sumTotal", receipt.total ?? 0),
    line(published, "sumPublished"),
    ...(inLog.length ? [line(inLog, "sumLog")] : []),
    line(ledger, "sumLedger"),
  ];
}

/**
 * Lead with the plain-words summary; below it, collapsed, the game's checks (as many as
 * verify.py's game mode prints, with its command line) and the day's log's, counted apart.
 */
function showSummary(checks, receipt, inLog, commands) {
  summary.replaceChildren(...summaryLines(checks, receipt, inLog).map(([ok, text]) => {
    const item = document.createElement("li");
    item.className = ok ? "pass" : "fail";
    item.dataset.ok = String(ok);
    const mark = document.createElement("span");
    mark.className = "mark";
    mark.setAttribute("aria-hidden", "true");
    mark.textContent = ok ? "✓" : "✗";
    item.append(mark, ` ${text}`);
    return item;
  }));
  summary.hidden = false;
  allChecks.hidden = false;
  allChecks.open = checks.some((check) => check.ok === false);
  const label = allChecks.querySelector("[data-all-checks-label]");
  label.textContent = plural("allChecks", checks.length);
  label.dataset.count = String(checks.length);
  allChecks.querySelector("[data-script-count]").replaceChildren(
    ...withCommand(plural("sameAsScript", checks.length), commands.game));
  logChecks.hidden = inLog.length === 0;
  logChecks.open = inLog.some((check) => check.ok === false);
  const logLabel = logChecks.querySelector("[data-log-checks-label]");
  logLabel.textContent = plural("logChecks", inLog.length);
  logLabel.dataset.count = String(inLog.length);
  logChecks.querySelector("[data-log-script]").replaceChildren(
    ...withCommand(t("logScript"), commands.log));
  logChecks.querySelector("[data-log-list]").replaceChildren(...inLog.map(checkItem));
}

const GROUPS = [
  ["groupLedger", /^(ledger |reveal dates|seed chains|seed successions)/],
  ["groupDay", /^(reveal|seed)$/],
  ["groupPlay", /^(roll |box |action |transcript$|game )/],
  ["groupResult", /./],
];

function checkItem(check) {
  const item = document.createElement("li");
  const state = check.ok === true ? "pass" : check.ok === false ? "fail" : "skip";
  item.className = state;
  item.dataset.check = check.name;
  item.dataset.ok = String(check.ok);
  const mark = document.createElement("span");
  mark.className = "mark";
  mark.textContent = state === "pass" ? "✓" : state === "fail" ? "✗" : "?";
  mark.setAttribute("role", "img");
  mark.setAttribute("aria-label", t({ pass: "yesMark", fail: "noMark", skip: "skipMark" }[state]));
  const name = document.createElement("span");
  name.className = "check-name";
  name.textContent = checkLabel(check.name, { boxNames });
  const detail = document.createElement("span");
  detail.className = "detail";
  detail.textContent = translateDetail(check.detail);
  item.append(mark, name, detail);
  return item;
}

function checkGroup(key, checks) {
  const group = document.createElement("details");
  group.className = "check-group";
  const passed = checks.filter((check) => check.ok === true).length;
  group.open = passed < checks.length || key !== "groupPlay";
  const summary = document.createElement("summary");
  summary.textContent = t(key);
  const count = document.createElement("span");
  count.className = passed === checks.length ? "count ok" : "count fail";
  count.textContent = t("groupCount", { passed, total: checks.length });
  summary.append(" ", count);
  const items = document.createElement("ul");
  items.className = "checks";
  items.append(...checks.map(checkItem));
  group.append(summary, items);
  return group;
}

/** The game's checks by group, the log's apart; the verdict counts every failure of both. */
function showChecks(checks, receipt, inLog, commands) {
  const grouped = new Map(GROUPS.map(([key]) => [key, []]));
  for (const check of checks) {
    const [key] = GROUPS.find(([, pattern]) => pattern.test(check.name));
    grouped.get(key).push(check);
  }
  list.replaceChildren(
    ...[...grouped].filter(([, members]) => members.length).map(([key, members]) => {
      const item = document.createElement("li");
      item.append(checkGroup(key, members));
      return item;
    }),
  );
  showSummary(checks, receipt, inLog, commands);
  const failed = [...checks, ...inLog].filter((check) => check.ok === false).length;
  verdict.className = `verdict ${failed ? "fail" : "ok"}`;
  verdict.textContent =
    failed === 0 ? t("allGood") : plural("failed", failed);
}

async function revealTime(date) {
  try {
    const data = await getJson(`/challenges?date=${encodeURIComponent(date)}`);
    return utcTime(data.challenges[0].reveal_at, lang);
  } catch {
    return date;
  }
}

async function isRevealed(date) {
  try {
    await getJson(`/ledger/${encodeURIComponent(date)}`);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      return false;
    }
    throw error;
  }
}

async function gameData(id) {
  const local = savedGame(id);
  if (local?.receipt && Array.isArray(local.transcript)) {
    return { receipt: local.receipt, transcript: local.transcript, date: local.date, local: true };
  }
  const { game } = await getJson(`/games/${encodeURIComponent(id)}`);
  return { receipt: game.receipt, transcript: game.transcript, date: game.date, local: false };
}

/** This page's address names the game `id` (?game=), so that it can be kept or shared. */
function keepInAddress(id) {
  const address = new URL(window.location.href);
  if (address.searchParams.get("game") !== id) {
    address.searchParams.set("game", id);
    window.history.replaceState(null, "", address);
  }
}

/**
 * Verify the game `id`, asked from `control`: until it is known to be verifiable (found,
 * its date revealed) only the field says anything; then the verdict and the checks.
 */
async function checkGame(id, control, focus) {
  sayAt(control, [t("checking")], { error: false });
  let data;
  try {
    data = await gameData(id);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      await sayMatch(id, control, focus);
    } else {
      sayAt(control, [errorText(error)], { focus });
    }
    return;
  }
  const receiptInfo = data.receipt && typeof data.receipt === "object" ? data.receipt : {};
  const sheet = sheetName(receiptInfo.ruleset ?? "");
  const date = data.date ? longDate(data.date, lang) : id;
  if (!(await isRevealed(data.date))) {
    const time = await revealTime(data.date);
    sayAt(control, [t("idNotRevealed", { sheet, date, time })], { focus });
    return;
  }
  clearFieldMessages();
  keepInAddress(id);
  title.textContent = `${sheet} · ${date}`;
  source.textContent = "";
  showMessage(t("checking"), "");
  let proof;
  let entries;
  let log = null;
  try {
    proof = (await getJson(`/games/${encodeURIComponent(id)}/proof`)).proof;
    entries = (await getJson("/ledger")).entries;
    if (receiptInfo.type === RECEIPT_V2_TYPE) {
      // A v2 game is also found in its day's log: the checkpoints signed as games finished.
      const sheetPath = encodeURIComponent(receiptInfo.ruleset);
      log = await getJson(`/logs/${encodeURIComponent(data.date)}/${sheetPath}`);
    }
  } catch (error) {
    showMessage(errorText(error), "fail");
    return;
  }
  source.textContent = data.local ? t("sourceLocal") : t("sourcePublic");
  translateDetail = await loadDetailTranslator(lang, translateDetail);
  const checks = await verifyGame({
    ledger: entries,
    receipt: data.receipt,
    transcript: data.transcript,
    proof,
  });
  const inLog = log ? await verifyReceiptInLog({ receipt: data.receipt, log, proof }) : [];
  const origin = window.location.origin;
  const commands = {
    game: `python3 verify.py game ${origin} ${id}`,
    log: `python3 verify.py log --url ${origin} --date ${data.date} `
      + `--sheet ${receiptInfo.ruleset} --game ${id}`,
  };
  showChecks(checks, receiptInfo, inLog, commands);
}

/** Verify what `text` names, asked from `control`; what it cannot verify, said at `control`. */
async function verify(text, control, { focus }) {
  const asked = readRequest(text);
  try {
    if (asked.kind === "game") {
      await checkGame(asked.id, control, focus);
    } else if (asked.kind === "match") {
      await sayMatch(asked.id, control, focus);
    } else if (asked.kind === "malformed") {
      sayAt(control, [t("idMalformed", { text: asked.text })], { focus });
    } else {
      const key = { missing: "idMissing", log: "idLogLine", table: "idTable" }[asked.kind];
      sayAt(control, [t(key)], { focus });
    }
  } catch (error) {
    showMessage(errorText(error), "fail");
  }
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  if (gameInput.value.trim() || !localSelect.value) {
    verify(gameInput.value, gameInput, { focus: true });
  } else {
    verify(localSelect.value, localSelect, { focus: true });
  }
});

localSelect.addEventListener("change", () => {
  gameInput.value = "";
  clearFieldMessages();
});

fillLocalGames();
const asked = new URLSearchParams(window.location.search).get("game");
if (asked !== null && asked.trim()) {
  gameInput.value = asked;
  verify(asked, gameInput, { focus: false });
}

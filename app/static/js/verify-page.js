// The Verify page: recompute a game in this browser with fairness.js, from published data
// (the ledger, the revealed seed, the inclusion proof) and the receipt and transcript saved on
// this device when there are any. No verdict of the server is used.

import { ApiError, errorText, getJson } from "./api.js";
import { loadDetailTranslator } from "./check-texts.js";
import { longDate, utcTime } from "./dates.js";
import { RECEIPT_V2_TYPE, verifyGame, verifyReceiptInLog } from "./fairness.js";
import { language, plural, t } from "./i18n.js";
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
const lang = language();
const GAME_ID = /[0-9a-f]{32}/i;

const sheetNames = JSON.parse(document.getElementById("sheet-names").textContent);
const boxNames = JSON.parse(document.getElementById("box-names").textContent);
let translateDetail = (detail) => detail;

function sheetName(ruleset) {
  return sheetNames[ruleset] ?? ruleset;
}

/** A check's name in the page language: "roll 3" → "Lancer 3", "box ones" → "Case As". */
function checkLabel(name) {
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

function fillLocalGames() {
  const games = Object.values(savedGames()).sort((a, b) => (a.date < b.date ? 1 : -1));
  for (const game of games) {
    const option = document.createElement("option");
    option.value = game.id;
    option.textContent = `${longDate(game.date, lang)} · ${sheetName(game.ruleset)} · ${game.total}`;
    localSelect.append(option);
  }
  if (games.length === 0) {
    localSelect.options[0].textContent = t("noLocalGames");
    localSelect.disabled = true;
  }
}

function showMessage(text, kind) {
  output.hidden = false;
  verdict.className = `verdict ${kind}`;
  verdict.textContent = text;
  list.replaceChildren();
  summary.hidden = true;
  allChecks.hidden = true;
}

/** True when every check of `checks` passed (and there is at least one). */
function allPassed(checks) {
  return checks.length > 0 && checks.every((check) => check.ok === true);
}

/**
 * What a player cares about, in plain words: their rolls came from the revealed seed, their
 * total is right, their game is in the published results. Each line is true or false.
 */
function summaryLines(checks, receipt) {
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
    line(ledger, "sumLedger"),
  ];
}

/** Lead with the plain-words summary; the full list of checks, collapsed, below it. */
function showSummary(checks, receipt) {
  summary.replaceChildren(...summaryLines(checks, receipt).map(([ok, text]) => {
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
  allChecks.querySelector("[data-all-checks-label]").textContent =
    plural("allChecks", checks.length);
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
  name.textContent = checkLabel(check.name);
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

function showChecks(checks, receipt) {
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
  showSummary(checks, receipt);
  const failed = checks.filter((check) => check.ok === false).length;
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

async function verify(id) {
  try {
    await checkGame(id);
  } catch (error) {
    showMessage(errorText(error), "fail");
  }
}

async function checkGame(id) {
  output.hidden = false;
  title.textContent = id;
  showMessage(t("checking"), "");
  source.textContent = "";
  let data;
  try {
    data = await gameData(id);
  } catch (error) {
    showMessage(error instanceof ApiError && error.status === 404 ? t("notFound") : error.message, "fail");
    return;
  }
  const receiptInfo = data.receipt && typeof data.receipt === "object" ? data.receipt : {};
  title.textContent = `${sheetName(receiptInfo.ruleset ?? "")} · ${data.date ? longDate(data.date, lang) : id}`;
  if (!(await isRevealed(data.date))) {
    showMessage(t("notRevealed", { time: await revealTime(data.date) }), "");
    return;
  }
  let proof;
  let entries;
  let log = null;
  try {
    proof = (await getJson(`/games/${encodeURIComponent(id)}/proof`)).proof;
    entries = (await getJson("/ledger")).entries;
    if (receiptInfo.type === RECEIPT_V2_TYPE) {
      // A v2 game is also found in its day's log: the chain of checkpoints signed as games finished.
      log = await getJson(`/logs/${encodeURIComponent(data.date)}/${encodeURIComponent(receiptInfo.ruleset)}`);
    }
  } catch (error) {
    showMessage(error.message, "fail");
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
  if (log) {
    checks.push(...(await verifyReceiptInLog({ receipt: data.receipt, log, proof })));
  }
  showChecks(checks, receiptInfo);
}

function requestedId() {
  const typed = GAME_ID.exec(gameInput.value.trim());
  return typed ? typed[0].toLowerCase() : localSelect.value;
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const id = requestedId();
  if (id) {
    verify(id);
  }
});

localSelect.addEventListener("change", () => {
  gameInput.value = "";
});

fillLocalGames();
const asked = new URLSearchParams(window.location.search).get("game");
if (asked && GAME_ID.test(asked)) {
  gameInput.value = asked;
  verify(asked.toLowerCase());
}

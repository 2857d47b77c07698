// The Verify page: recompute a game in this browser with fairness.js, from published data
// (the ledger, the revealed seed, the inclusion proof) and the receipt and transcript saved on
// this device when there are any. No verdict of the server is used.

import { ApiError, getJson } from "./api.js";
import { localTime, longDate } from "./dates.js";
import { verifyGame } from "./fairness.js";
import { language, t } from "./i18n.js";
import { savedGame, savedGames } from "./store.js";

const form = document.querySelector("[data-verify-form]");
const localSelect = form.querySelector("[data-local-games]");
const gameInput = form.querySelector("[data-game-input]");
const output = document.querySelector("[data-verify-output]");
const title = output.querySelector("[data-verify-title]");
const verdict = output.querySelector("[data-verdict]");
const source = output.querySelector("[data-source]");
const list = output.querySelector("[data-checks]");
const lang = language();
const GAME_ID = /[0-9a-f]{32}/i;

const sheetNames = JSON.parse(document.getElementById("sheet-names").textContent);
const boxNames = JSON.parse(document.getElementById("box-names").textContent);

function sheetName(ruleset) {
  return sheetNames[ruleset] ?? ruleset;
}

/** A check's name in the page language: "roll 3" → "Lancer 3", "box ones" → "Case As". */
function checkLabel(name) {
  const roll = /^roll (\d+)$/.exec(name);
  if (roll) {
    return t("checkRoll", { n: roll[1] });
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
}

function showChecks(checks) {
  list.replaceChildren();
  for (const check of checks) {
    const item = document.createElement("li");
    const state = check.ok === true ? "pass" : check.ok === false ? "fail" : "skip";
    item.className = state;
    item.dataset.check = check.name;
    item.dataset.ok = String(check.ok);
    const mark = document.createElement("span");
    mark.className = "mark";
    mark.textContent = check.ok === true ? "✓" : check.ok === false ? "✗" : "?";
    mark.setAttribute("aria-label", t(state === "pass" ? "yesMark" : state === "fail" ? "noMark" : "skipMark"));
    mark.setAttribute("role", "img");
    const name = document.createElement("span");
    name.className = "check-name";
    name.textContent = checkLabel(check.name);
    const detail = document.createElement("span");
    detail.className = "detail";
    detail.textContent = check.detail;
    item.append(mark, name, detail);
    list.append(item);
  }
  const failed = checks.filter((check) => check.ok === false).length;
  verdict.className = `verdict ${failed ? "fail" : "ok"}`;
  verdict.textContent =
    failed === 0 ? t("allGood") : failed === 1 ? t("failedOne") : t("failedMany", { n: failed });
}

async function revealTime(date) {
  try {
    const data = await getJson(`/challenges?date=${encodeURIComponent(date)}`);
    return localTime(data.challenges[0].reveal_at, lang);
  } catch {
    return date;
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
  let proof;
  try {
    proof = (await getJson(`/games/${encodeURIComponent(id)}/proof`)).proof;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && data.date) {
      showMessage(t("notRevealed", { time: await revealTime(data.date) }), "");
      return;
    }
    showMessage(error.message, "fail");
    return;
  }
  const { entries } = await getJson("/ledger");
  source.textContent = data.local ? t("sourceLocal") : t("sourcePublic");
  const checks = await verifyGame({
    ledger: entries,
    receipt: data.receipt,
    transcript: data.transcript,
    proof,
  });
  showChecks(checks);
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

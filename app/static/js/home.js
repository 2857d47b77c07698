// The home page: today's challenge per sheet with its status, "continue" for a game in
// progress, the countdowns to the next day and to the reveal, and the player's name.

import { errorText, getJson } from "./api.js";
import { localDate, localTime, longDate, msUntilTomorrow, spokenDuration } from "./dates.js";
import { language, plural, t } from "./i18n.js";
import { playerName, setPlayerName } from "./store.js";

const today = localDate();
const VALID_NAME = /^[^\p{C}]{1,24}$/u;
let serverOffsetMs = 0;
let revealAt = null;

function setStatus(card, status) {
  const chip = card.querySelector("[data-status-chip]");
  chip.className = `chip ${status}`;
  chip.textContent = t(`status_${status}`);
}

async function showGame(card, challenge) {
  const playLink = card.querySelector("[data-play-link]");
  const scoreLine = card.querySelector("[data-score-line]");
  card.querySelector("[data-results-link]").href =
    `/results/${encodeURIComponent(challenge.date)}/${encodeURIComponent(challenge.ruleset)}`;
  playLink.href = `/play/${encodeURIComponent(challenge.ruleset)}?date=${challenge.date}`;
  if (!challenge.game) {
    playLink.hidden = challenge.status !== "open";
    if (challenge.status !== "open") {
      scoreLine.hidden = false;
      scoreLine.textContent = t("notPlayable");
    }
    return;
  }
  const { game } = await getJson(`/games/${encodeURIComponent(challenge.game)}`);
  if (game.status === "playing") {
    playLink.textContent = t("continue", { turn: game.turn, turns: game.turns });
    return;
  }
  setStatus(card, "finished");
  scoreLine.hidden = false;
  scoreLine.textContent = plural("finishedScore", game.totals.total);
  playLink.textContent = t("verify");
  playLink.classList.add("secondary");
  playLink.href = `/verify?game=${encodeURIComponent(game.id)}`;
}

async function loadChallenges() {
  const data = await getJson(`/challenges?date=${today}`);
  serverOffsetMs = Date.parse(data.now) - Date.now();
  for (const challenge of data.challenges) {
    revealAt ??= Date.parse(challenge.reveal_at);
    const card = document.querySelector(`[data-challenge="${CSS.escape(challenge.ruleset)}"]`);
    if (card) {
      setStatus(card, challenge.status);
      await showGame(card, challenge);
    }
  }
  tick(); // the reveal countdown now, not at the next second's tick
}

/** The two countdowns, each one sentence: when (local time, zone named) and how long till then. */
function tick() {
  const lang = language();
  document.querySelector('[data-countdown="tomorrow"]').textContent =
    t("nextChallengeHome", { in: spokenDuration(msUntilTomorrow(), lang) });
  if (revealAt !== null) {
    const left = revealAt - (Date.now() + serverOffsetMs);
    const time = localTime(new Date(revealAt).toISOString(), lang);
    document.querySelector('[data-countdown="reveal"]').textContent =
      left > 0 ? t("revealHome", { time, in: spokenDuration(left, lang) }) : t("now");
  }
}

/** The player's streaks and finished games, from the server's record (the one that counts). */
async function showHistory() {
  const record = await getJson("/me/history");
  const days = (n) => plural("days", n);
  document.querySelector('[data-stat="current"]').textContent = days(record.current_streak);
  document.querySelector('[data-stat="best-streak"]').textContent = days(record.best_streak);
  document.querySelector('[data-stat="played"]').textContent = String(record.finished);
}

function wireNameForm() {
  const form = document.querySelector("[data-name-form]");
  const input = form.querySelector("input");
  input.value = playerName();
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = input.value.trim();
    const status = form.querySelector("[data-name-status]");
    if (name && !VALID_NAME.test(name)) {
      status.textContent = t("nameInvalid");
      input.setAttribute("aria-invalid", "true");
      return;
    }
    input.removeAttribute("aria-invalid");
    setPlayerName(name);
    status.textContent = name ? t("nameSaved") : t("nameCleared");
  });
}

document.querySelector("[data-today-label]").textContent = longDate(today, language());
function showError(error) {
  const notice = document.querySelector("[data-home-error]");
  notice.hidden = false;
  notice.textContent = errorText(error);
}

wireNameForm();
tick();
setInterval(tick, 1000);
loadChallenges().catch(showError);
showHistory().catch(showError);

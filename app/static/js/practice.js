// The practice page: a sheet, 0 to 5 computer opponents with their levels, duplicate dealing
// (every seat the same dice each turn) or not, and the client seed (random by default, editable). Starting creates the match (its server seed committed before
// any roll) and opens its page, which sends the client seed with the first roll.

import { errorText, postJson } from "./api.js";
import { t } from "./i18n.js";
import { randomClientSeed, rememberClientSeed } from "./practice-seed.js";

const form = document.querySelector("[data-practice-form]");
const list = form.querySelector("[data-opponents]");
const template = form.querySelector("[data-opponent-template]");
const addButton = form.querySelector("[data-add-opponent]");
const seedInput = form.querySelector("[data-client-seed]");
const errorLine = form.querySelector("[data-form-error]");
const startButton = form.querySelector("[data-start]");
const duplicateBox = form.querySelector("[data-duplicate]");
const MAX_OPPONENTS = 5;
const CLIENT_SEED = /^[A-Za-z0-9._~-]{1,64}$/;

function renumber() {
  [...list.children].forEach((item, index) => {
    const label = t("opponentN", { n: index + 1 });
    item.querySelector("[data-opponent-label]").textContent = label;
    item.querySelector("[data-level]").setAttribute("aria-label", label);
  });
  addButton.disabled = list.children.length >= MAX_OPPONENTS;
}

function addOpponent() {
  if (list.children.length >= MAX_OPPONENTS) {
    return;
  }
  const item = template.content.firstElementChild.cloneNode(true);
  item.querySelector("[data-remove-opponent]").addEventListener("click", () => {
    item.remove();
    renumber();
    addButton.focus();
  });
  list.append(item);
  renumber();
  item.querySelector("[data-level]").focus();
}

function showError(text) {
  errorLine.textContent = text;
  errorLine.hidden = !text;
}

async function start(event) {
  event.preventDefault();
  const clientSeed = seedInput.value.trim();
  if (!CLIENT_SEED.test(clientSeed)) {
    showError(t("clientSeedInvalid"));
    seedInput.focus();
    return;
  }
  showError("");
  startButton.disabled = true;
  const ruleset = form.querySelector("input[name=ruleset]:checked").value;
  const bots = [...list.querySelectorAll("[data-level]")].map((select) => select.value);
  try {
    const { match } = await postJson("/matches", { ruleset, bots,
      duplicate: duplicateBox.checked });
    rememberClientSeed(match.id, clientSeed);
    window.location.assign(`/practice/${encodeURIComponent(match.id)}`);
  } catch (error) {
    showError(errorText(error));
    startButton.disabled = false;
  }
}

seedInput.value = randomClientSeed();
form.querySelector("[data-new-seed]").addEventListener("click", () => {
  seedInput.value = randomClientSeed();
});
addButton.addEventListener("click", addOpponent);
form.addEventListener("submit", start);
renumber();

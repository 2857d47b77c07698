// The new-table form: seats, bots, clock, duplicate dealing (every seat the same dice each turn),
// name and client seed; creates the table, then opens it.

import { errorText, postJson } from "./api.js";

const form = document.querySelector("[data-new-table]");
const rows = [...form.querySelectorAll("[data-seat-row]")];
const statusLine = form.querySelector("[data-form-status]");

function randomSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function visibleRows() {
  return rows.filter((row) => !row.hidden);
}

function showNameFields() {
  for (const row of rows) {
    row.querySelector("[data-seat-name]").hidden = row.querySelector("[data-seat-kind]").value !== "here";
  }
}

function seatSpec(row) {
  const kind = row.querySelector("[data-seat-kind]").value;
  if (kind.startsWith("bot:")) return { kind: "bot", level: kind.slice(4) };
  if (kind === "here") {
    return { kind: "human", here: true, name: row.querySelector("[data-seat-name]").value,
      client_seed: randomSeed() };
  }
  return { kind: "human" };
}

form.querySelector("[data-client-seed]").value = randomSeed();
form.addEventListener("change", showNameFields);
form.querySelector("[data-add-seat]").addEventListener("click", () => {
  const next = rows.find((row) => row.hidden);
  if (next) next.hidden = false;
});
form.querySelector("[data-remove-seat]").addEventListener("click", () => {
  const shown = visibleRows();
  if (shown.length > 1) shown[shown.length - 1].hidden = true;
});
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const seconds = Number(form.querySelector("[data-clock]").value);
  try {
    const answer = await postJson("/tables", {
      ruleset: form.querySelector("[data-ruleset]").value,
      name: form.querySelector("[data-name]").value,
      client_seed: form.querySelector("[data-client-seed]").value,
      clock: Number.isInteger(seconds) ? seconds : null,
      duplicate: form.querySelector("[data-duplicate]").checked,
      seats: visibleRows().map(seatSpec),
    });
    window.location.assign(`/tables/${answer.table.id}`);
  } catch (error) {
    statusLine.textContent = errorText(error);
  }
});
showNameFields();

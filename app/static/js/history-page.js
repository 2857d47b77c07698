// The "My record" page: make a one-time transfer code, redeem one from another device, and say
// plainly when this device holds older games the server's record does not count.

import { errorText, postJson } from "./api.js";
import { localTime } from "./dates.js";
import { language, t } from "./i18n.js";
import { savedGames } from "./store.js";

const transfer = document.querySelector("[data-transfer]");
const makeButton = transfer.querySelector("[data-make-code]");
const makeStatus = transfer.querySelector("[data-make-status]");
const codeBox = transfer.querySelector("[data-code-box]");
const redeemForm = transfer.querySelector("[data-redeem-form]");
const redeemStatus = redeemForm.querySelector("[data-redeem-status]");

/** Tell the player about games only this device saved: the server's record is the truth. */
function showLocalOnlyGames() {
  const known = new Set(
    [...document.querySelectorAll("[data-games] [data-game]")].map((row) => row.dataset.game),
  );
  const localOnly = Object.keys(savedGames()).filter((id) => !known.has(id));
  if (localOnly.length > 0) {
    const notice = document.querySelector("[data-local-notice]");
    notice.textContent = t("localOnlyGames");
    notice.hidden = false;
  }
}

async function makeCode() {
  makeButton.disabled = true;
  makeStatus.textContent = "";
  try {
    const made = await postJson("/me/transfer", {});
    codeBox.querySelector("[data-code]").textContent = made.code;
    codeBox.querySelector("[data-code-expiry]").textContent = t("codeExpires", {
      time: localTime(made.expires_at, language()),
    });
    codeBox.hidden = false;
    makeStatus.textContent = t("codeMade");
  } catch (error) {
    makeStatus.textContent = errorText(error);
  } finally {
    makeButton.disabled = false;
  }
}

async function redeemCode(event) {
  event.preventDefault();
  const input = redeemForm.querySelector("input");
  const button = redeemForm.querySelector("button");
  button.disabled = true;
  redeemStatus.textContent = "";
  input.removeAttribute("aria-invalid");
  try {
    await postJson("/me/transfer/redeem", { code: input.value });
    redeemStatus.textContent = t("codeRedeemed");
    window.location.reload();
  } catch (error) {
    input.setAttribute("aria-invalid", "true");
    redeemStatus.textContent = errorText(error);
    button.disabled = false;
  }
}

makeButton.addEventListener("click", makeCode);
redeemForm.addEventListener("submit", redeemCode);
showLocalOnlyGames();

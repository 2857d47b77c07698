// The friend groups' pages: create a group, join one by code, copy a group's invite link or
// code, rename it, leave it (docs/api.md, "Groups").

import { errorText, postJson } from "./api.js";
import { localDate } from "./dates.js";
import { t } from "./i18n.js";

/** Send `form`'s fields to `path`; on success go where `next(answer)` says. */
function submitTo(form, path, next) {
  const status = form.querySelector("[data-form-status]");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]");
    const body = {};
    for (const input of form.querySelectorAll("input[name]")) {
      const value = input.value.trim();
      if (value !== "" || input.required) {
        body[input.name] = value;
      }
    }
    button.disabled = true;
    status.textContent = "";
    try {
      next(await postJson(path, body));
    } catch (error) {
      status.textContent = errorText(error);
    } finally {
      button.disabled = false;
    }
  });
}

function groupUrl(group) {
  return `/groups/${encodeURIComponent(group.id)}`;
}

const createForm = document.querySelector("[data-create-form]");
if (createForm) {
  submitTo(createForm, "/groups", (group) => window.location.assign(groupUrl(group)));
}
const joinForm = document.querySelector("[data-join-form]");
if (joinForm) {
  submitTo(joinForm, "/groups/join", (group) => window.location.assign(groupUrl(group)));
}

const boardRoot = document.querySelector("[data-group-board]");
// The server renders the board of its UTC date; "today" is the player's own date, the one the
// daily page plays: show that one unless the address names a date.
const ownDate = localDate();
if (boardRoot && !new URLSearchParams(window.location.search).has("date") &&
    ownDate !== boardRoot.dataset.date) {
  const address = new URL(window.location.href);
  address.searchParams.set("date", ownDate);
  window.location.replace(address);
} else if (boardRoot) {
  const groupId = boardRoot.dataset.group;
  const renameForm = document.querySelector("[data-rename-form]");
  submitTo(renameForm, `/groups/${groupId}/rename`, (group) => {
    document.querySelector("[data-group-name]").textContent = group.name;
    document.title = document.title.replace(/^[^·]*·/, `${group.name} ·`);
    renameForm.querySelector("[data-form-status]").textContent = t("groupRenamed");
  });

  const copyStatus = document.querySelector("[data-copy-status]");
  for (const button of document.querySelectorAll("[data-copy-text]")) {
    button.addEventListener("click", async () => {
      try {
        if (!navigator.clipboard?.writeText) {
          throw new Error("no clipboard");
        }
        await navigator.clipboard.writeText(button.dataset.copyText);
        copyStatus.textContent = t("groupCopied");
      } catch {
        copyStatus.textContent = t("groupCopyRefused");
      }
    });
  }

  const leaveButton = document.querySelector("[data-leave]");
  leaveButton.addEventListener("click", async () => {
    leaveButton.disabled = true;
    try {
      await postJson(`/groups/${groupId}/leave`, {});
      window.location.assign("/groups");
    } catch (error) {
      document.querySelector("[data-leave-status]").textContent = errorText(error);
      leaveButton.disabled = false;
    }
  });
}

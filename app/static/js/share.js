// "Copy result": the clipboard when the browser allows it, else a selected text box;
// the system share sheet where one exists; and what a share text holds yet.

import { t } from "./i18n.js";

/** Wire the copy and share buttons of `panel` to the text `getText()` resolves to. */
export function setUpSharing(panel, getText) {
  const copyButton = panel.querySelector("[data-copy]");
  const shareButton = panel.querySelector("[data-share]");
  const status = panel.querySelector("[data-copy-status]");
  const fallback = panel.querySelector("[data-fallback]");
  const textBox = panel.querySelector("[data-share-text]");

  function showFallback(text) {
    textBox.value = text;
    fallback.hidden = false;
    status.textContent = t("copyRefused");
    textBox.focus();
    textBox.select();
  }

  copyButton.addEventListener("click", async () => {
    const text = await getText();
    try {
      if (!navigator.clipboard?.writeText) {
        throw new Error("no clipboard");
      }
      await navigator.clipboard.writeText(text);
      fallback.hidden = true;
      status.textContent = t("copied");
    } catch {
      showFallback(text);
    }
  });

  if (typeof navigator.share === "function") {
    shareButton.hidden = false;
    shareButton.addEventListener("click", async () => {
      const text = await getText();
      try {
        await navigator.share({ title: t("shareTitle"), text });
      } catch (error) {
        if (error?.name !== "AbortError") {
          showFallback(text);
        }
      }
    });
  }
}

// The line of a share text that marks each turn by the points it gave away (TURN_MARKS in
// app/daily/share.py): present once the coach's review of the game is ready.
const TURN_MARKS_LINE = /^(?:🟩|🟡|🔶|❌)+$/mu;

/** True when `text` has its line of turn marks. */
export function hasTurnMarks(text) {
  return TURN_MARKS_LINE.test(text);
}

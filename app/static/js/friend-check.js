// "Check a friend's result" on the Verify page: find the gossip line in a pasted share text
// (FAIRNESS.md, "Gossip: fingerprints in share texts"), fetch the day's log as this browser is
// served it, check the log with fairness.js, and say whether one of its checkpoints has the
// friend's fingerprint. A mismatch means one of the two was shown another history.

import { ApiError, errorText, getJson } from "./api.js";
import { findGossipLine, logFingerprints, verifyGossip } from "./fairness.js";
import { plural, t } from "./i18n.js";

const form = document.querySelector("[data-friend-form]");
const pasted = form.querySelector("[data-friend-text]");
const verdict = document.querySelector("[data-friend-verdict]");

/** Show `text`; `state` is match, mismatch, unverified or "" (working), also as a data mark. */
function say(text, state) {
  verdict.hidden = false;
  verdict.className = `verdict ${{ match: "ok", mismatch: "fail", unverified: "fail" }[state] ?? ""}`;
  verdict.dataset.friendVerdict = state;
  verdict.textContent = text;
}

/** The verdict on the friend's line against the log `log` of its (date, sheet). */
async function judge(line, ledger, log) {
  const checks = await verifyGossip({ ledger, date: line.date, ruleset: line.sheet, log,
    fingerprint: line.fingerprint });
  const gossip = checks.pop();
  const size = Number(line.fingerprint.split(" ")[0]);
  const values = { date: line.date, fingerprint: line.fingerprint };
  if (checks.some((check) => check.ok === false)) {
    return [t("friendLogBad", values), "unverified"];
  }
  if (gossip.ok) {
    return [plural("friendMatch", size, values), "match"];
  }
  const served = await logFingerprints(log);
  const same = served.find((p) => p.size === size);
  return same
    ? [plural("friendFork", size, { ...values, ours: same.fingerprint }), "mismatch"]
    : [plural("friendMissing", size, values), "mismatch"];
}

async function check(text) {
  const line = findGossipLine(text);
  if (!line) {
    say(t("friendNoLine"), "unverified");
    return;
  }
  say(t("checking"), "");
  let ledger;
  let log;
  try {
    ledger = (await getJson("/ledger")).entries;
    log = await getJson(`/logs/${encodeURIComponent(line.date)}/${encodeURIComponent(line.sheet)}`);
  } catch (error) {
    const unknown = error instanceof ApiError && error.status === 404;
    say(unknown ? t("friendNoLog", { date: line.date }) : errorText(error), "unverified");
    return;
  }
  if (!log.checkpoints.length) {
    say(plural("friendMissing", Number(line.fingerprint.split(" ")[0]),
      { fingerprint: line.fingerprint }), "mismatch");
    return;
  }
  const [sentence, state] = await judge(line, ledger, log);
  say(sentence, state);
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  check(pasted.value).catch((error) => say(errorText(error), "unverified"));
});

// Calendar dates as the API writes them (YYYY-MM-DD) and durations as the pages show them.

import { t } from "./i18n.js";

function pad(number) {
  return String(number).padStart(2, "0");
}

/** The browser's local calendar date: the day the player is living, which the API plays. */
export function localDate(now = new Date()) {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** True for a well-formed YYYY-MM-DD string. */
export function isIsoDate(text) {
  return typeof text === "string" && /^\d{4}-\d{2}-\d{2}$/.test(text);
}

function dateAtUtcMidnight(isoDate) {
  return new Date(`${isoDate}T00:00:00Z`);
}

/** A date written out in the page language, e.g. "dimanche 29 novembre 2026". */
export function longDate(isoDate, lang) {
  return new Intl.DateTimeFormat(lang, { dateStyle: "full", timeZone: "UTC" }).format(
    dateAtUtcMidnight(isoDate),
  );
}

/** A UTC instant in the reader's local time with its zone, e.g. "30 nov. 2026, 13:01 UTC+1". */
export function localTime(isoInstant, lang) {
  return new Intl.DateTimeFormat(lang, {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(new Date(isoInstant));
}

/**
 * A UTC instant in UTC, marked so, as the ledger page writes times: "Mar 11, 2026, 1:00:00 AM UTC".
 * The ledger and verify pages share this convention; the play and home pages speak local time.
 */
export function utcTime(isoInstant, lang) {
  const text = new Intl.DateTimeFormat(lang, {
    dateStyle: "medium",
    timeStyle: "medium",
    timeZone: "UTC",
  }).format(new Date(isoInstant));
  return `${text} UTC`;
}

/** A duration in words, to the minute: "1 day, 7 hours, 27 minutes" ("1 jour, 7 heures…"). */
export function spokenDuration(ms, lang) {
  const minutes = Math.max(0, Math.round(ms / 60000));
  const parts = {
    days: Math.floor(minutes / 1440),
    hours: Math.floor((minutes % 1440) / 60),
    minutes: minutes % 60,
  };
  if (typeof Intl.DurationFormat === "function") {
    return new Intl.DurationFormat(lang, { style: "long" }).format(parts);
  }
  return duration(minutes * 60000);
}

/** The time until the next local midnight, in milliseconds. */
export function msUntilTomorrow(now = new Date()) {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return midnight - now;
}

/** A countdown: "05:03:12", or "1 d 05:03:12" (in the page language) past a day. */
export function duration(ms) {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(seconds / 86400);
  const clock = [
    Math.floor((seconds % 86400) / 3600),
    Math.floor((seconds % 3600) / 60),
    seconds % 60,
  ]
    .map(pad)
    .join(":");
  return days > 0 ? `${t("daysShort", { d: days })} ${clock}` : clock;
}

// Runs calls into app/static/js/fairness.js for the Python tests and prints their results.
//
// Usage: node run_fairness.mjs JOBS.json — JOBS is a list of {"fn": <exported name>, "args": [...]}.
// An argument {"hex": "..."} is passed as bytes; byte results come back as {"hex": "..."}.
// Output: one JSON list with, per job, {"value": ...} or {"error": "<message>"}.
// Without JOBS.json it reads the paths of job files from its standard input, one per line, and
// answers each with its JSON list on one line, until its input ends.

import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { dirname, resolve } from "node:path";

const here = dirname(new URL(import.meta.url).pathname);
const fairness = await import(pathToFileURL(resolve(here, "../../app/static/js/fairness.js")));

function decode(value) {
  if (Array.isArray(value)) return value.map(decode);
  if (value && typeof value === "object") {
    if (Object.keys(value).length === 1 && typeof value.hex === "string") {
      return fairness.hexToBytes(value.hex);
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decode(v)]));
  }
  return value;
}

function encode(value) {
  if (value instanceof Uint8Array) return { hex: fairness.bytesToHex(value) };
  if (Array.isArray(value)) return value.map(encode);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, encode(v)]));
  }
  return value;
}

async function run(path) {
  const jobs = JSON.parse(readFileSync(path, "utf8"));
  const results = [];
  for (const job of jobs) {
    try {
      const fn = fairness[job.fn];
      if (typeof fn !== "function") throw new Error(`fairness.js exports no function ${job.fn}`);
      results.push({ value: encode(await fn(...decode(job.args))) });
    } catch (error) {
      results.push({ error: String(error && error.message ? error.message : error) });
    }
  }
  return JSON.stringify(results);
}

if (process.argv[2]) {
  process.stdout.write(await run(process.argv[2]));
} else {
  for await (const path of createInterface({ input: process.stdin })) {
    process.stdout.write((await run(path)) + "\n");
  }
}

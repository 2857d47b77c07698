// Translates check detail lines with app/static/js/check-texts.js, for the Python tests.
//
// Usage: node run_check_texts.mjs JOB.json — JOB is {"catalogue": {...}, "lang": "fr",
// "details": ["...", ...]}. Output: the JSON list of the translated lines.

import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const here = dirname(new URL(import.meta.url).pathname);
const { detailTranslator } = await import(
  pathToFileURL(resolve(here, "../../app/static/js/check-texts.js"))
);
const job = JSON.parse(readFileSync(process.argv[2], "utf8"));
const translate = detailTranslator(job.catalogue, job.lang);
process.stdout.write(JSON.stringify(job.details.map(translate)));

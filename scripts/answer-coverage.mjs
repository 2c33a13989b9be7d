#!/usr/bin/env node
/**
 * How much of the OpenAPI document the black-box tests exercised. Merges the files the
 * listening servers write when FORGEKIT_ANSWER_COVERAGE_DIR is set, then prints the operations
 * answered at least once out of the document's, per plugin tag, and lists those never answered
 * and those answered only with errors.
 *
 *   FORGEKIT_ANSWER_COVERAGE_DIR=/tmp/cov npx vitest run test/ --project forgekit
 *   node scripts/answer-coverage.mjs /tmp/cov
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/answer-coverage.mjs <dir>');
  process.exit(2);
}

/**
 * Routes under a project's full path (git over HTTP, uploads) are listed once per path depth
 * (`/{s0}/{s1}/{s2}/info/refs`, ...): they count as one operation, answered at any depth.
 */
const collapsed = (operation) => operation.replace(/(\/\{s\d+\})+/, '/{full_path}');

/** operation → its plugin tag, over every server's document. */
const tagOf = new Map();
/** operation → the statuses it answered with. */
const statuses = new Map();
for (const name of readdirSync(dir).filter((file) => file.endsWith('.json'))) {
  const { operations, answered } = JSON.parse(readFileSync(join(dir, name), 'utf8'));
  for (const { operation, tag } of operations) tagOf.set(collapsed(operation), tag);
  for (const [answeredOperation, seen] of Object.entries(answered)) {
    const operation = collapsed(answeredOperation);
    if (!statuses.has(operation)) statuses.set(operation, new Set());
    for (const status of seen) statuses.get(operation).add(status);
  }
}

const percent = (part, whole) => `${whole === 0 ? 0 : Math.round((100 * part) / whole)}%`;
const byTag = new Map();
for (const [operation, tag] of tagOf) {
  if (!byTag.has(tag)) byTag.set(tag, { total: 0, missing: [], failedOnly: [] });
  const entry = byTag.get(tag);
  entry.total += 1;
  if (!statuses.has(operation)) entry.missing.push(operation);
  else if ([...statuses.get(operation)].every((status) => status >= 400)) entry.failedOnly.push(operation);
}

const missing = [...byTag.values()].reduce((sum, entry) => sum + entry.missing.length, 0);
console.log(`operations answered: ${tagOf.size - missing} / ${tagOf.size} (${percent(tagOf.size - missing, tagOf.size)})\n`);
const rows = [...byTag].sort(([, a], [, b]) => (a.total - a.missing.length) / a.total - (b.total - b.missing.length) / b.total);
for (const [tag, { total, missing: never }] of rows) {
  console.log(`${tag.padEnd(24)} ${String(total - never.length).padStart(4)} / ${String(total).padEnd(4)} ${percent(total - never.length, total)}`);
}
const list = (title, key) => {
  console.log(`\n${title}:`);
  for (const [tag, entry] of rows) for (const operation of entry[key].sort()) console.log(`  ${tag.padEnd(22)} ${operation}`);
};
list('never answered', 'missing');
// An error answer checks the error body only: the success schema was never held to an answer.
list('answered with errors only', 'failedOnly');

#!/usr/bin/env node
/**
 * `prepack` and `postpack` of every published package; npm runs them in the package's
 * directory around `npm pack` and `npm publish`.
 *
 *   prepack   builds the package and the packages it depends on (turbo, so a cached build
 *             costs nothing), then removes the `@forgekit/source` export condition from
 *             package.json: it points at TypeScript sources the package does not ship, and
 *             serves only this repository's tests and typecheck.
 *   postpack  puts package.json back as it was.
 *
 * npm has no per-field publish override for `exports` (pnpm's publishConfig has), hence the
 * rewrite. An interrupted pack leaves package.json.prepack beside package.json; the next
 * prepack or postpack restores it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE_CONDITION = '@forgekit/source';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = resolve('package.json');
const saved = `${manifest}.prepack`;

function restore() {
  if (existsSync(saved)) renameSync(saved, manifest);
}

/** `exports` without the source condition, at any depth. */
function withoutSourceCondition(value) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== SOURCE_CONDITION)
      .map(([key, entry]) => [key, withoutSourceCondition(entry)]),
  );
}

function prepack() {
  restore();
  const text = readFileSync(manifest, 'utf8');
  const pkg = JSON.parse(text);
  process.stderr.write(`${pkg.name}: building it and its dependencies before packing...\n`);
  const build = spawnSync(join(root, 'node_modules', '.bin', 'turbo'), ['run', 'build', `--filter=${pkg.name}...`, '--output-logs=new-only'], {
    cwd: root,
    stdio: ['ignore', process.stderr, process.stderr],
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
  });
  if (build.status !== 0) {
    process.stderr.write(`${pkg.name}: the build failed (${build.error?.message ?? `status ${build.status}`}); nothing was packed\n`);
    process.exit(1);
  }
  writeFileSync(saved, text);
  writeFileSync(manifest, `${JSON.stringify({ ...pkg, exports: withoutSourceCondition(pkg.exports) }, null, 2)}\n`);
}

const step = process.argv[2];
if (step === 'prepack') prepack();
else if (step === 'postpack') restore();
else {
  process.stderr.write('Usage: node scripts/pack-manifest.mjs prepack|postpack (run by npm in a package directory)\n');
  process.exit(2);
}

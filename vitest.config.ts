import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Tests resolve workspace packages to their TypeScript sources. Only conditions that are
// safe for Node's own resolution go here: vitest passes them on to Node.
const conditions = ['@forgekit/source', 'node', 'default'];

/** Packs, installs and boots the published packages. */
const PACKAGING = 'test/packed-packages.test.ts';
/** The route fuzzer's files: the longest-running ones, each a few lines long. */
const FUZZ = 'apps/server/src/fuzz/route-fuzz-*.test.ts';

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    projects: [
      {
        // Without timings from an earlier run, vitest starts the largest files first, and these
        // small ones would run last, on one worker while the other idles: they go first instead.
        extends: true,
        test: { name: 'fuzz', include: [FUZZ], sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: {
          name: 'forgekit',
          include: ['packages/*/src/**/*.test.ts', 'plugins/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [PACKAGING, FUZZ, '**/node_modules/**'],
          sequence: { groupOrder: 1 },
        },
      },
      {
        // `npm pack` rewrites a package's package.json while it packs (see scripts/pack-manifest.mjs),
        // which other test files resolve the workspace packages from: it runs once they are done.
        extends: true,
        test: { name: 'packaging', include: [PACKAGING], sequence: { groupOrder: 2 } },
      },
    ],
    pool: 'forks',
    // Each worker imports the kernel, MikroORM and the plugins once for all the files it runs,
    // instead of once per file: that import was half of the suite's time. Test files keep no
    // shared state (each builds its own app and database, and restores what it spies on).
    isolate: false,
    // Test files wait on git, child processes and the database much of the time: one worker
    // per core, and at least two, keeps the cores busy (vitest's default leaves one idle).
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

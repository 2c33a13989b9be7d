/**
 * The workspace packages as this repository uses them: every export resolves, under the
 * `@forgekit/source` condition, to the TypeScript source of what it ships. `npm pack` drops
 * that condition while it packs (scripts/pack-manifest.mjs); an interrupted pack must not
 * leave a manifest without it, or tests and the typecheck would quietly run the last build.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

const workspaces = ['packages', 'plugins', 'apps'].flatMap((parent) =>
  readdirSync(join(root, parent))
    .map((name) => `${parent}/${name}`)
    .filter((dir) => existsSync(join(root, dir, 'package.json'))),
);

describe('workspace manifests', () => {
  it('lists the workspaces', () => {
    expect(workspaces).toContain('packages/kernel');
    expect(workspaces).toContain('plugins/ci-variables');
    expect(workspaces).toContain('apps/server');
  });

  it.each(workspaces)('%s: every export has its source condition first, on the source of what it ships', (dir) => {
    expect(existsSync(join(root, dir, 'package.json.prepack')), 'a pack was interrupted: its saved manifest is left').toBe(false);
    const { exports } = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as { exports: Record<string, Record<string, string>> };
    expect(Object.keys(exports).length).toBeGreaterThan(0);
    for (const [subpath, conditions] of Object.entries(exports)) {
      const source = conditions['@forgekit/source'];
      expect(Object.keys(conditions)[0], `${subpath}`).toBe('@forgekit/source');
      expect(source, `${subpath}`).toBe(conditions.default!.replace(/^\.\/dist\//, './src/').replace(/\.js$/, '.ts'));
      expect(existsSync(join(root, dir, source!)), `${dir}/${source}`).toBe(true);
    }
  });
});

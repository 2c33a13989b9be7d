/**
 * The boundaries the plugin guide draws, checked over every source file: a plugin reaches
 * another only through its `/contracts`, contracts carry no ORM type and no table row, the
 * packages under `packages/` import no plugin, and plugin code reads and writes only through
 * the kernel's property-named API.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../../..');

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (name.endsWith('.ts')) files.push(path);
  }
  return files;
}

const isTest = (path: string) => path.endsWith('.test.ts') || /\/src\/testing(\/|\.ts$)/.test(path);
const plugins = readdirSync(join(root, 'plugins')).filter((name) => statSync(join(root, 'plugins', name)).isDirectory());
const pluginSources = plugins.flatMap((plugin) => sourceFiles(join(root, 'plugins', plugin, 'src')).map((path) => ({ plugin, path })));
const packageSources = readdirSync(join(root, 'packages')).flatMap((name) => sourceFiles(join(root, 'packages', name, 'src')));

/** Every module a file imports or re-exports, static or dynamic. */
function importsOf(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  const found = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'/g), ...text.matchAll(/import\(\s*'([^']+)'\s*\)/g)];
  return found.map((match) => match[1]!);
}

const where = (path: string) => relative(root, path);

describe('plugin boundaries', () => {
  it('a plugin reaches another plugin only through its /contracts (tests may compose plugins)', () => {
    const crossings = pluginSources
      .filter(({ path }) => !isTest(path))
      .flatMap(({ plugin, path }) =>
        importsOf(path)
          .filter((module) => module.startsWith('@forgekit/plugin-') && module !== `@forgekit/plugin-${plugin}` && !module.endsWith('/contracts'))
          .map((module) => `${where(path)} imports ${module}`),
      );
    expect(crossings).toEqual([]);
  });

  it('the packages under packages/ import no plugin', () => {
    const crossings = packageSources.flatMap((path) =>
      importsOf(path)
        .filter((module) => module.startsWith('@forgekit/plugin-'))
        .map((module) => `${where(path)} imports ${module}`),
    );
    expect(crossings).toEqual([]);
  });

  it('every plugin has src/contracts.ts and exports it as ./contracts', () => {
    const missing = plugins.filter((plugin) => {
      const manifest = JSON.parse(readFileSync(join(root, 'plugins', plugin, 'package.json'), 'utf8'));
      const hasFile = sourceFiles(join(root, 'plugins', plugin, 'src')).some((path) => path.endsWith(`${plugin}/src/contracts.ts`));
      return !hasFile || !manifest.exports?.['./contracts'];
    });
    expect(missing).toEqual([]);
  });

  it('contracts carry no ORM or query-builder type, and no entity or store', () => {
    const leaks = pluginSources
      .filter(({ path }) => path.endsWith('/src/contracts.ts'))
      .flatMap(({ path }) =>
        importsOf(path)
          .filter((module) => module.startsWith('@mikro-orm') || module === '@forgekit/kernel/orm' || /\/entities\/|-store\.js$/.test(module))
          .map((module) => `${where(path)} imports ${module}`),
      );
    expect(leaks).toEqual([]);
  });

  it('plugin code reads and writes through the property-named API only', () => {
    const raw = /\bdatabase\s*\.\s*legacy\b|\bKnex\b|\bEntityManager\b|\bknex\s*\.\s*raw\b|\bcontainsText\b|\bidListReads\b/;
    // Migrations use knex's schema builder, the one place columns are named besides entities.
    const found = pluginSources
      .filter(({ path }) => !isTest(path) && !path.includes('/migrations/'))
      .flatMap(({ path }) => (raw.test(readFileSync(path, 'utf8')) ? [where(path)] : []));
    expect(found).toEqual([]);
  });
});

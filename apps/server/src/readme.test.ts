import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allPlugins } from './plugins.js';

const root = new URL('../../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');
const short = (name: string | undefined) => name?.replace('@forgekit/plugin-', '') ?? '(unknown package)';

/** What each plugin of the reference server needs and uses, by package, from its refs. */
const dependencies = allPlugins.map((plugin) => ({
  id: plugin.id,
  needs: [...new Set((plugin.requires ?? []).filter((ref) => !ref.id.startsWith('kernel.')).map((ref) => short(ref.packageName)))],
  uses: [...new Set((plugin.optional ?? []).map((ref) => short(ref.packageName)))],
}));

describe('the README', () => {
  it("lists which plugin needs which, as the plugins' refs say", () => {
    const rows = [...readme.matchAll(/^\| `@forgekit\/plugin-([a-z-]+)` \|([^|]*)\|([^|]*)\|$/gm)].map(([, id, needs, uses]) => ({
      id,
      needs: needs!.trim() ? needs!.trim().split(', ') : [],
      uses: uses!.trim() ? uses!.trim().split(', ') : [],
    }));
    expect(rows).toEqual(dependencies);
  });

  it('lists every plugin of the reference server in the repository layout', () => {
    for (const plugin of allPlugins) expect(readme).toContain(`| \`plugins/${plugin.id}\` | \`@forgekit/plugin-${plugin.id}\` |`);
  });

  it.each(dependencies.filter(({ needs }) => needs.length > 0))("has each plugin's README say what $id needs", ({ id, needs }) => {
    const own = readFileSync(new URL(`plugins/${id}/README.md`, root), 'utf8');
    expect(own).toContain(`It needs ${needs.map((name) => `\`@forgekit/plugin-${name}\``).join(', ')}`);
  });
});

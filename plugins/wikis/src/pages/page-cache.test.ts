import childProcess, { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { notesPlugin } from '@forgekit/plugin-notes';
import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { repositoryReadRef } from '@forgekit/plugin-repositories/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wikisPlugin } from '../plugin.js';
import { createPageCache } from './page-cache.js';

const run = promisify(execFile);

/** Counts the child processes this process starts, through the two calls the git runner uses. */
function countSpawns() {
  const originals = { spawn: childProcess.spawn, execFile: childProcess.execFile };
  let count = 0;
  for (const name of ['spawn', 'execFile'] as const) {
    const original = originals[name] as (...args: unknown[]) => unknown;
    (childProcess as unknown as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]) {
      count++;
      return original.apply(this, args);
    };
  }
  syncBuiltinESMExports();
  return {
    get count() {
      return count;
    },
    reset() {
      count = 0;
    },
    restore() {
      Object.assign(childProcess, originals);
      syncBuiltinESMExports();
    },
  };
}

describe('wiki reads from the page cache', () => {
  let app: TestApp;
  let base: string;
  let work: string;
  let spawns: ReturnType<typeof countSpawns>;

  const list = async () => (await app.get(base, { token: 'guest', query: { with_content: 'true' } })).body as { slug: string; content: string }[];
  const show = async (slug: string, query: Record<string, string> = {}) =>
    (await app.get(`${base}/${encodeURIComponent(slug)}`, { token: 'guest', query })).body;
  const gitDir = async () => (await app.kernel.resolve(repositoryReadRef).find({ kind: 'wiki', containerId: app.project.id }))!.gitDir;
  /** git in another process, outside the API. */
  const git = async (...args: string[]) => (await run('git', args, { env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: work } })).stdout.trim();

  beforeAll(async () => {
    app = await createTestApp({ plugins: [repositoriesPlugin, notesPlugin, wikisPlugin] });
    base = `/api/v4/projects/${app.project.id}/wikis`;
    work = await mkdtemp(join(tmpdir(), 'forgekit-wiki-cache-'));
    for (const [title, content] of [
      ['Home', '# Home\n\nWelcome'],
      ['guides/Setup', '---\ntitle: Set it up\n---\nInstall it.'],
      ['Notes', 'Plain *notes*'],
    ]) {
      expect((await app.post(base, { title, content }, { token: 'developer' })).status).toBe(201);
    }
    spawns = countSpawns();
  });
  afterAll(async () => {
    spawns?.restore();
    await app.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('answers a warm list, page, version and render_html read without starting a process', async () => {
    const head = await git('--git-dir', await gitDir(), 'rev-parse', 'HEAD');
    const first = {
      list: await list(),
      page: await show('guides/Setup'),
      html: await show('Home', { render_html: 'true' }),
      old: await show('Home', { version: head }),
    };
    spawns.reset();
    const again = {
      list: await list(),
      page: await show('guides/Setup'),
      html: await show('Home', { render_html: 'true' }),
      old: await show('Home', { version: head }),
    };
    expect(spawns.count).toBe(0);
    expect(again).toEqual(first);
    expect(again.list.map((page) => page.slug)).toEqual(['Home', 'Notes', 'guides/Setup']);
    expect(again.page).toMatchObject({ title: 'Set it up', content: 'Install it.', front_matter: { title: 'Set it up' } });
    expect(again.html.content).toBe('<h1>Home</h1>\n<p>Welcome</p>');
  });

  it('shows a commit written by another process on the next read, and the old one again after a rewind', async () => {
    const bare = await gitDir();
    const before = await git('--git-dir', bare, 'rev-parse', 'HEAD');
    expect((await show('Home', { render_html: 'true' })).content).toBe('<h1>Home</h1>\n<p>Welcome</p>');

    // Another process clones, commits and writes the commit into the wiki repository.
    const clone = join(work, 'clone');
    await git('clone', '--quiet', bare, clone);
    await writeFile(join(clone, 'Home.md'), '# Home\n\nChanged outside');
    await writeFile(join(clone, 'Outside.md'), 'Written by git');
    await git('-C', clone, 'add', '.');
    await git('-C', clone, '-c', 'user.name=Out Side', '-c', 'user.email=out@example.com', 'commit', '--quiet', '-m', 'outside');
    const branch = await git('--git-dir', bare, 'symbolic-ref', '--short', 'HEAD');
    await git('--git-dir', bare, 'fetch', '--quiet', clone, `+HEAD:refs/heads/${branch}`);

    expect((await list()).map((page) => [page.slug, page.content])).toEqual([
      ['Home', '# Home\n\nChanged outside'],
      ['Notes', 'Plain *notes*'],
      ['Outside', 'Written by git'],
      ['guides/Setup', 'Install it.'],
    ]);
    expect((await show('Home')).content).toBe('# Home\n\nChanged outside');
    expect((await show('Home', { render_html: 'true' })).content).toBe('<h1>Home</h1>\n<p>Changed outside</p>');

    // Moving the branch back shows the old pages again, straight from what was kept.
    await git('--git-dir', bare, 'update-ref', `refs/heads/${branch}`, before);
    spawns.reset();
    expect((await list()).map((page) => page.slug)).toEqual(['Home', 'Notes', 'guides/Setup']);
    expect((await show('Home')).content).toBe('# Home\n\nWelcome');
    expect(spawns.count).toBe(0);
  });

  it('shows a change made through the API on the next read', async () => {
    await list();
    expect((await app.put(`${base}/Notes`, { content: 'Edited *notes*' }, { token: 'developer' })).status).toBe(200);
    expect((await list()).find((page) => page.slug === 'Notes')?.content).toBe('Edited *notes*');
    expect((await show('Notes', { render_html: 'true' })).content).toBe('<p>Edited <em>notes</em></p>');
    expect((await app.delete(`${base}/Notes`, { token: 'maintainer' })).status).toBe(204);
    expect((await list()).map((page) => page.slug)).not.toContain('Notes');
    expect((await app.get(`${base}/Notes`, { token: 'guest' })).status).toBe(404);
  });
});

describe('the page cache', () => {
  it('keeps texts within its byte budget, dropping the least recently used', () => {
    const cache = createPageCache({ treeBytes: 1024, textBytes: 4096, htmlBytes: 1024, listBytes: 1024 });
    // Each text here is estimated at 2 × (64 + 600) = 1328 bytes: three fit in 4096.
    const text = (fill: string) => ({ text: fill.repeat(300), content: fill.repeat(300), frontMatter: {} });
    for (const id of ['a', 'b', 'c']) cache.keepText(id, text(id));
    expect(cache.text('a')?.text).toBe('a'.repeat(300));
    cache.keepText('d', text('d'));
    expect(cache.text('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((id) => cache.text(id)?.content[0])).toEqual(['a', 'c', 'd']);
    cache.keepText('huge', text('h'.repeat(10)));
    expect(cache.text('huge')).toBeUndefined();
  });

  it('keeps a page list as sent per repository and commit, within its byte budget', () => {
    const cache = createPageCache({ treeBytes: 1024, textBytes: 1024, htmlBytes: 1024, listBytes: 1024 });
    cache.keepList('/repo', 'c'.repeat(40), '[{"slug":"Home"}]');
    expect(cache.list('/repo', 'c'.repeat(40))).toBe('[{"slug":"Home"}]');
    expect(cache.list('/repo', 'd'.repeat(40))).toBeUndefined();
    expect(cache.list('/other', 'c'.repeat(40))).toBeUndefined();
    cache.keepList('/repo', 'e'.repeat(40), 'x'.repeat(1000));
    expect(cache.list('/repo', 'e'.repeat(40))).toBeUndefined();
  });

  it('loads a commit page list once for concurrent readers', async () => {
    const cache = createPageCache();
    let loads = 0;
    const load = async () => {
      loads++;
      return [{ path: 'Home.md', slug: 'Home', format: 'markdown' as const, blobId: 'b'.repeat(40) }];
    };
    const [one, two] = await Promise.all([cache.pages('/repo', 'c'.repeat(40), load), cache.pages('/repo', 'c'.repeat(40), load)]);
    expect(one).toBe(two);
    expect(loads).toBe(1);
    await cache.pages('/repo', 'd'.repeat(40), load);
    expect(loads).toBe(2);
  });
});

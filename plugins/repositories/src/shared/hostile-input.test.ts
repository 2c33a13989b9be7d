import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { commitFiles, createRepoTestApp } from '../testing/repo-test-app.js';

/** Longer than the system lets one argument of a process be (128 KiB). */
const HUGE = 'a'.repeat(200 * 1024);
const HUGE_PATH = `dir/${'b'.repeat(200 * 1024)}.txt`;

describe('hostile input never reaches git unchecked', () => {
  let app: TestApp;
  let base: string;

  beforeAll(async () => {
    app = await createRepoTestApp();
    base = `/api/v4/projects/${app.project.id}/repository`;
    await commitFiles(app, app.project.id, { 'README.md': '# Hi\n', 'docs/guide.md': 'guide\n' });
  });
  afterAll(() => app.close());

  const get = (path: string, query: Record<string, string>) => app.get(`${base}${path}`, { token: 'maintainer', query });
  const post = (path: string, body: Record<string, unknown>) => app.post(`${base}${path}`, body, { token: 'maintainer' });

  it.each([
    ['/tree { ref: <200 KiB> }', '/tree', { ref: HUGE }, 'ref should be a valid reference path'],
    ['/tree { ref: --output=/tmp/owned }', '/tree', { ref: '--output=/tmp/owned' }, 'ref should be a valid reference path'],
    ['/tree { path: <200 KiB path> }', '/tree', { path: HUGE_PATH }, 'path should be a valid file path'],
    ['/tree { path: ../../etc/passwd }', '/tree', { path: '../../etc/passwd' }, 'path should be a valid file path'],
    ['/tree { path: docs/%2e%2e/%2e%2e/etc }', '/tree', { path: 'docs/%2e%2e/%2e%2e/etc' }, 'path should be a valid file path'],
    ['/commits { ref_name: <200 KiB> }', '/commits', { ref_name: HUGE }, 'ref_name should be a valid reference path'],
    ['/commits { ref_name: -n1 }', '/commits', { ref_name: '-n1' }, 'ref_name should be a valid reference path'],
    ['/commits { path: <200 KiB path> }', '/commits', { path: HUGE_PATH }, 'path should be a valid file path'],
    ['/commits { path: ../x }', '/commits', { path: '../x' }, 'path should be a valid file path'],
    ['/commits { author: <200 KiB> }', '/commits', { author: HUGE }, 'author author must be less than 1024 characters'],
    ['/files/README.md { ref: <200 KiB> }', '/files/README.md', { ref: HUGE }, 'ref should be a valid reference path'],
    ['/files/README.md/raw { ref: <200 KiB> }', '/files/README.md/raw', { ref: HUGE }, 'ref should be a valid reference path'],
    ['/files/<200 KiB path> { ref: main }', `/files/${encodeURIComponent(HUGE_PATH)}`, { ref: 'main' }, 'file_path should be a valid file path'],
    ['/files/<200 KiB path>/raw { ref: main }', `/files/${encodeURIComponent(HUGE_PATH)}/raw`, { ref: 'main' }, 'file_path should be a valid file path'],
    ['/compare { from: <200 KiB>, to: main }', '/compare', { from: HUGE, to: 'main' }, 'from should be a valid reference path'],
    ['/compare { from: main, to: -x }', '/compare', { from: 'main', to: '-x' }, 'to should be a valid reference path'],
  ])('GET %s', async (_label, path, query, error) => {
    expect(await get(path, query)).toMatchObject({ status: 400, body: { error } });
  });

  it('answers 404 for a commit named by an unusable revision', async () => {
    for (const sha of [HUGE, '--all']) {
      expect(await app.get(`${base}/commits/${encodeURIComponent(sha)}`, { token: 'maintainer' })).toMatchObject({
        status: 404,
        body: { message: '404 Commit Not Found' },
      });
      expect(await app.get(`${base}/commits/${encodeURIComponent(sha)}/diff`, { token: 'maintainer' })).toMatchObject({ status: 404 });
    }
  });

  it('refuses huge branch, tag and start names with GitLab’s texts', async () => {
    expect(await post('/branches', { branch: HUGE, ref: 'main' })).toMatchObject({ status: 400, body: { message: 'Branch name is invalid' } });
    expect(await post('/branches', { branch: 'x', ref: HUGE })).toMatchObject({ status: 400, body: { error: 'ref should be a valid reference path' } });
    expect(await post('/tags', { tag_name: HUGE, ref: 'main' })).toMatchObject({ status: 400, body: { message: 'Tag name invalid' } });
    expect(await post('/tags', { tag_name: 't', ref: HUGE })).toMatchObject({ status: 400, body: { error: 'ref should be a valid reference path' } });
    const commit = { commit_message: 'm', actions: [{ action: 'create', file_path: 'n.txt', content: 'n' }] };
    expect(await post('/commits', { ...commit, branch: 'new', start_branch: HUGE })).toMatchObject({
      status: 400,
      body: { error: 'start_branch should be a valid reference path' },
    });
    expect(await post('/commits', { ...commit, branch: HUGE })).toMatchObject({ status: 400 });
    const file = { branch: 'main', start_branch: HUGE, content: 'x', commit_message: 'm' };
    expect(await post('/files/new.txt', file)).toMatchObject({ status: 400, body: { error: 'start_branch should be a valid reference path' } });
  });

  it('refuses huge action paths before reading the tree', async () => {
    for (const action of [
      { action: 'create', file_path: HUGE_PATH, content: 'x' },
      { action: 'update', file_path: HUGE_PATH, content: 'x' },
      { action: 'move', file_path: 'moved.md', previous_path: HUGE_PATH },
    ]) {
      const res = await post('/commits', { branch: 'main', commit_message: 'm', actions: [action] });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^invalid path: '/);
    }
  });

  it('commits more action paths than one process may take as arguments', async () => {
    // About 2.5 MB of paths: past the system's limit for one command line (2 MiB here).
    const actions = Array.from({ length: 12_000 }, (_, i) => ({ action: 'create', file_path: `many/${'p'.repeat(200)}-${i}.txt`, content: String(i) }));
    const res = await post('/commits', { branch: 'main', commit_message: 'Many files', actions });
    expect(res.status).toBe(201);
    const file = await get(`/files/${encodeURIComponent(actions[11_999]!.file_path)}/raw`, { ref: 'main' });
    expect(file.text).toBe('11999');
  });
});

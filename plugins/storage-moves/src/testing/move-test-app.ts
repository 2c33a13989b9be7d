/** Test helpers: an app with two storages, the repositories and storage-moves plugins, and a wait for moves. */
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { createStorageMovesPlugin } from '../plugin.js';
import type { MoveHooks } from '../contracts.js';

export async function createMoveTestApp(hooks: MoveHooks = {}): Promise<TestApp> {
  return createTestApp({
    plugins: [repositoriesPlugin, createStorageMovesPlugin({ hooks })],
    config: { plugins: { repositories: { storages: { second: 'second-storage' } } } },
  });
}

const DONE = new Set(['finished', 'failed', 'cleanup failed']);

/** Waits until `done` holds, checking every 20 ms; fails after `timeoutMs`. */
export async function until(done: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Polls a move until it ended (moves run as background jobs); returns its last state. */
export async function waitForMove(app: TestApp, path: string): Promise<Record<string, any>> {
  for (let attempt = 0; attempt < 1500; attempt++) {
    const res = await app.get(path, { token: 'admin' });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
    if (DONE.has(res.body.state)) return res.body;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`move ${path} did not end`);
}

/** A project with a few commits through the API; returns its id. */
export async function projectWithCommits(app: TestApp, name: string): Promise<number> {
  const created = await app.post('/api/v4/projects', { name, namespace_id: app.group.id, initialize_with_readme: true }, { token: 'owner' });
  if (created.status !== 201) throw new Error(created.text);
  for (let i = 1; i <= 2; i++) {
    const res = await app.post(
      `/api/v4/projects/${created.body.id}/repository/commits`,
      { branch: 'main', commit_message: `Change ${i}`, actions: [{ action: 'create', file_path: `file-${i}.txt`, content: `content ${i}\n` }] },
      { token: 'owner' },
    );
    if (res.status !== 201) throw new Error(res.text);
  }
  await app.post(`/api/v4/projects/${created.body.id}/repository/tags`, { tag_name: 'v1', ref: 'main', message: 'Tagged' }, { token: 'owner' });
  return created.body.id;
}

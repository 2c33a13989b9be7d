import { join } from 'node:path';
import type { Kernel } from '@forgekit/kernel';
import { createSharedDatabaseApps, type SharedDatabaseApps, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoriesPlugin } from '../plugin.js';

/** A project's repository row, kept for reading requests under their change mark, as another process sees it. */
describe('repositories looked up for reading requests', () => {
  let app: TestApp;
  let shared: SharedDatabaseApps;
  let other: Kernel;
  let base: string;

  beforeAll(async () => {
    shared = await createSharedDatabaseApps([repositoriesPlugin]);
    app = shared.app;
    base = `/api/v4/projects/${app.project.id}/repository`;
    other = await shared.kernelOnSameDatabase('other', {
      plugins: { repositories: { storages: { default: join(app.kernel.config.dataDir, 'repositories') } } },
    });
  });
  afterAll(async () => {
    await other?.stop();
    await shared?.close();
  });

  const treeOn = async (kernel: Kernel) => {
    const response = await kernel.fetch(new Request(`http://localhost${base}/tree`, { headers: { 'PRIVATE-TOKEN': app.tokens.developer! } }));
    return { status: response.status, paths: response.status === 200 ? ((await response.json()) as { path: string }[]).map((entry) => entry.path) : [] };
  };

  it('reads a repository another process creates on the next request, though none was found before', async () => {
    const before = await treeOn(other);
    expect(before.paths).toEqual([]);
    expect(await treeOn(other)).toEqual(before);
    const committed = await app.post(
      `${base}/commits`,
      { branch: 'main', commit_message: 'First', actions: [{ action: 'create', file_path: 'README.md', content: 'hello\n' }] },
      { token: 'maintainer' },
    );
    expect(committed.status).toBe(201);
    expect(await treeOn(other)).toEqual({ status: 200, paths: ['README.md'] });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Kernel } from '@forgekit/kernel';
import { corePlugin } from '@forgekit/plugin-core';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { createStorageMovesPlugin } from '../plugin.js';
import { MOVE_JOB } from './move-scheduler.js';
import { projectWithCommits, waitForMove } from '../testing/move-test-app.js';

const postgres = !!process.env.FORGEKIT_TEST_DATABASE_URL;

/** Two server processes (kernels) on one PostgreSQL database and one set of storages. */
describe.skipIf(!postgres)('storage moves with several processes on PostgreSQL', () => {
  let app: TestApp;
  let second: Kernel;
  const runs: string[] = [];
  const storages = { repositories: { storages: { second: 'second-storage' } } };

  beforeAll(async () => {
    app = await createTestApp({
      plugins: [repositoriesPlugin, createStorageMovesPlugin({ hooks: { afterCopy: () => void runs.push('first') } })],
      config: { plugins: storages },
    });
    second = await createKernel({
      plugins: [corePlugin, repositoriesPlugin, createStorageMovesPlugin({ hooks: { afterCopy: () => void runs.push('second') } })],
      config: {
        dataDir: app.kernel.config.dataDir,
        databaseUrl: app.kernel.config.databaseUrl,
        logLevel: 'silent',
        externalUrl: 'http://localhost',
        plugins: storages,
      },
    });
    await second.start();
  });
  afterAll(async () => {
    await second?.stop();
    await app?.close();
  });

  it('runs every move exactly once, whichever process picks it up and however often it is delivered', async () => {
    const ids: number[] = [];
    const projectIds: number[] = [];
    for (const name of ['Multi one', 'Multi two', 'Multi three']) {
      const projectId = await projectWithCommits(app, name);
      projectIds.push(projectId);
      const res = await app.post(`/api/v4/projects/${projectId}/repository_storage_moves`, { destination_storage_name: 'second' }, { token: 'admin' });
      ids.push(res.body.id);
      // A second delivery, straight into the other process.
      await second.jobs.run(MOVE_JOB, { moveId: res.body.id });
    }
    for (const id of ids) expect((await waitForMove(app, `/api/v4/project_repository_storage_moves/${id}`)).state).toBe('finished');
    for (const id of ids) await app.kernel.jobs.run(MOVE_JOB, { moveId: id });
    expect(runs).toHaveLength(3);
    const left = (await app.get('/api/v4/projects', { token: 'admin', query: { repository_storage: 'default' } })).body.map(
      (project: { id: number }) => project.id,
    );
    expect(left.filter((id: number) => projectIds.includes(id))).toEqual([]);
  });
});

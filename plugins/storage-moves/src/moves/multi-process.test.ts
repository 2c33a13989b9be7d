/**
 * Two server processes, each an operating-system process of its own, on one PostgreSQL
 * database and one set of storages: this test's kernel and second-process.pg.test.ts,
 * started as a child process. Both take move jobs from the queue they share.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { createStorageMovesPlugin } from '../plugin.js';
import { MOVE_JOB } from './move-scheduler.js';
import { projectWithCommits, until, waitForMove } from '../testing/move-test-app.js';
import { SHARED_STORAGES, startSecondProcess, type SecondProcess } from '../testing/second-process.js';

const postgres = !!process.env.FORGEKIT_TEST_DATABASE_URL;

describe.skipIf(!postgres)('storage moves with several processes on PostgreSQL', () => {
  let app: TestApp;
  let second: SecondProcess;
  let signalDir: string;
  /** The moves this process copied; the second process records its own as `ran-<id>` files. */
  const runs: string[] = [];
  const signalled = (name: string) => existsSync(join(signalDir, name));

  beforeAll(async () => {
    app = await createTestApp({
      plugins: [repositoriesPlugin, createStorageMovesPlugin({ hooks: { afterCopy: (move) => void runs.push(`first:${move.id}`) } })],
      config: { plugins: SHARED_STORAGES },
    });
    signalDir = await mkdtemp(join(tmpdir(), 'forgekit-moves-processes-'));
    second = startSecondProcess({ databaseUrl: app.kernel.config.databaseUrl!, dataDir: app.kernel.config.dataDir, signalDir });
    let exited = false;
    void second.exited.then(() => (exited = true));
    await until(() => signalled('ready') || exited, 'the second process boots', 180_000);
    if (!signalled('ready')) throw new Error(`the second process did not start:\n${second.output.join('')}`);
  }, 200_000);
  afterAll(async () => {
    second?.kill();
    await app?.close();
    if (signalDir) await rm(signalDir, { recursive: true, force: true });
  });

  it('runs every move exactly once, whichever process picks it up and however often it is delivered', { timeout: 180_000 }, async () => {
    const ids: number[] = [];
    const projectIds: number[] = [];
    for (const name of ['Multi one', 'Multi two', 'Multi three']) {
      const projectId = await projectWithCommits(app, name);
      projectIds.push(projectId);
      const res = await app.post(`/api/v4/projects/${projectId}/repository_storage_moves`, { destination_storage_name: 'second' }, { token: 'admin' });
      ids.push(res.body.id);
      // A second delivery, straight into the other process.
      await writeFile(join(signalDir, `deliver-${res.body.id}`), '');
      await until(() => signalled(`delivered-${res.body.id}`), `the second process ran move ${res.body.id}`);
    }
    for (const id of ids) expect((await waitForMove(app, `/api/v4/project_repository_storage_moves/${id}`)).state).toBe('finished');
    for (const id of ids) await app.kernel.jobs.run(MOVE_JOB, { moveId: id });

    await writeFile(join(signalDir, 'stop'), '');
    expect(await second.exited, second.output.join('')).toBe(0);
    runs.push(...(await readdir(signalDir)).filter((name) => name.startsWith('ran-')).map((name) => `second:${name.slice('ran-'.length)}`));
    expect(runs).toHaveLength(3);
    expect(runs.map((run) => Number(run.split(':')[1])).sort((a, b) => a - b)).toEqual(ids);
    const left = (await app.get('/api/v4/projects', { token: 'admin', query: { repository_storage: 'default' } })).body.map(
      (project: { id: number }) => project.id,
    );
    expect(left.filter((id: number) => projectIds.includes(id))).toEqual([]);
  });
});

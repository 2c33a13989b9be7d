import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { coreAccessRef, coreGroupsRef, coreProjectsRef } from '@forgekit/plugin-core';
import { git, repositoriesServiceRef, repositoryPlacementRef, type RepositoryService } from '@forgekit/plugin-repositories';
import { RepositoryStorageMoveEntity } from '../entities/repository-storage-move.js';
import { RECOVER_JOB } from '../plugin.js';
import { containerAdapters } from './containers.js';
import { SOURCE_LEFT_MESSAGE, STOPPED_MESSAGE } from './move-recovery.js';
import type { MoveHooks } from '../contracts.js';
import { createMoveRunner } from './move-runner.js';
import { createMoveScheduler } from './move-scheduler.js';
import { MoveState } from './move-states.js';
import { createMoveStore } from './move-store.js';
import { createMoveTestApp, projectWithCommits, waitForMove } from '../testing/move-test-app.js';

const refsOf = async (gitDir: string) => (await git(gitDir, ['for-each-ref', '--format=%(objectname) %(refname)'])).stdout.toString();

/** A gate a move waits at until the test opens it. */
function gate() {
  let open!: () => void;
  let reached!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const arrived = new Promise<void>((resolve) => (reached = resolve));
  return {
    open,
    arrived,
    wait: async () => {
      reached();
      await opened;
    },
  };
}

describe('recovering storage moves whose process stopped', () => {
  let app: TestApp;
  let repos: RepositoryService;
  /** Opens every gate still closed, so nothing is left hanging when the app stops. */
  const cleanups: (() => void)[] = [];

  beforeAll(async () => {
    app = await createMoveTestApp();
    repos = app.kernel.resolve(repositoriesServiceRef);
  });
  afterAll(async () => {
    for (const cleanup of cleanups) cleanup();
    await app.close();
  });

  /**
   * A move run by hand, as a process of its own would run it: scheduled without queuing
   * its job, then run with `hooks`, so the test decides when it stops and resumes.
   */
  async function runByHand(projectId: number, hooks: MoveHooks) {
    const store = createMoveStore(app.kernel.database);
    const placement = app.kernel.resolve(repositoryPlacementRef);
    const adapters = containerAdapters({
      repos: placement,
      projects: app.kernel.resolve(coreProjectsRef),
      groups: app.kernel.resolve(coreGroupsRef),
      access: app.kernel.resolve(coreAccessRef),
    });
    const log = { warn: () => undefined } as never;
    const scheduler = createMoveScheduler({ store, repos: placement, jobs: { enqueue: async () => undefined }, log });
    const move = await scheduler.schedule(adapters.project, projectId, 'second');
    const run = createMoveRunner({ store, repos: placement, adapters, log, hooks })({ moveId: move.id });
    return { move, run };
  }

  /** Makes a move look silent for two hours, then runs the recovery job. */
  async function recoverAfterSilence(moveId: number) {
    await app.kernel.database.update(RepositoryStorageMoveEntity, { id: moveId }, { updatedAt: new Date(Date.now() - 2 * 3600_000) });
    await app.kernel.jobs.run(RECOVER_JOB, {});
    return (await app.get(`/api/v4/project_repository_storage_moves/${moveId}`, { token: 'admin' })).body;
  }

  it('a run that resumes after its move was failed leaves a later move’s repository alone', async () => {
    const projectId = await projectWithCommits(app, 'Zombie');
    const source = (await repos.find({ kind: 'project', containerId: projectId }))!;
    const refsBefore = await refsOf(source.gitDir);
    const stalled = gate();
    cleanups.push(stalled.open);
    const first = await runByHand(projectId, { afterCopy: stalled.wait });
    await stalled.arrived;

    expect(await recoverAfterSilence(first.move.id)).toMatchObject({ state: 'failed', error_message: STOPPED_MESSAGE });
    expect((await repos.find({ kind: 'project', containerId: projectId }))!).toMatchObject({ storage: 'default', readOnly: false });

    // An administrator schedules the move again; it runs through.
    const again = await app.post(`/api/v4/projects/${projectId}/repository_storage_moves`, { destination_storage_name: 'second' }, { token: 'admin' });
    expect((await waitForMove(app, `/api/v4/project_repository_storage_moves/${again.body.id}`)).state).toBe('finished');
    const moved = (await repos.find({ kind: 'project', containerId: projectId }))!;
    expect(moved.storage).toBe('second');

    // The stalled run wakes up: it must not remove what the later move put in place.
    stalled.open();
    await first.run;
    expect(existsSync(moved.gitDir)).toBe(true);
    expect(await refsOf(moved.gitDir)).toBe(refsBefore);
    expect((await git(moved.gitDir, ['fsck', '--no-progress'])).code).toBe(0);
    expect((await app.get(`/api/v4/project_repository_storage_moves/${first.move.id}`, { token: 'admin' })).body.state).toBe('failed');
    expect((await app.get(`/api/v4/projects/${projectId}/repository/files/file-1.txt/raw`, { token: 'owner' })).text).toBe('content 1\n');
  });

  it('a move that stopped after its records switched ends `cleanup failed`, on the destination and writable', async () => {
    const projectId = await projectWithCommits(app, 'Switched');
    const source = (await repos.find({ kind: 'project', containerId: projectId }))!;
    const refsBefore = await refsOf(source.gitDir);
    const stalled = gate();
    cleanups.push(stalled.open);
    const { move, run } = await runByHand(projectId, { afterSwitch: stalled.wait });
    await stalled.arrived;

    expect(await recoverAfterSilence(move.id)).toMatchObject({ state: 'cleanup failed', error_message: SOURCE_LEFT_MESSAGE });
    const moved = (await repos.find({ kind: 'project', containerId: projectId }))!;
    expect(moved).toMatchObject({ storage: 'second', readOnly: false });
    expect(await refsOf(moved.gitDir)).toBe(refsBefore);
    expect(existsSync(source.gitDir)).toBe(true);
    expect((await app.get(`/api/v4/projects/${projectId}`, { token: 'admin' })).body.repository_storage).toBe('second');
    const onDefault = (await app.get('/api/v4/projects', { token: 'admin', query: { repository_storage: 'default' } })).body.map((p: { id: number }) => p.id);
    expect(onDefault).not.toContain(projectId);

    // Writable again, and the stalled run does not take the move back when it wakes up.
    const write = await app.post(
      `/api/v4/projects/${projectId}/repository/commits`,
      { branch: 'main', commit_message: 'After recovery', actions: [{ action: 'create', file_path: 'after.txt', content: 'x' }] },
      { token: 'owner' },
    );
    expect(write.status).toBe(201);
    stalled.open();
    await run;
    expect((await app.get(`/api/v4/project_repository_storage_moves/${move.id}`, { token: 'admin' })).body.state).toBe('cleanup failed');
    expect((await app.get(`/api/v4/projects/${projectId}/repository/commits/main`, { token: 'owner' })).body.id).toBe(write.body.id);
  });

  it('a move silent in `replicated` ends `cleanup failed` with its repositories writable', async () => {
    const projectId = await projectWithCommits(app, 'Replicated');
    const stalled = gate();
    cleanups.push(stalled.open);
    const { move, run } = await runByHand(projectId, { afterSwitch: stalled.wait });
    await stalled.arrived;
    // As if the process died right after the move became `replicated`.
    await app.kernel.database.update(RepositoryStorageMoveEntity, { id: move.id }, { state: MoveState.replicated });

    expect(await recoverAfterSilence(move.id)).toMatchObject({ state: 'cleanup failed', error_message: SOURCE_LEFT_MESSAGE });
    expect((await repos.find({ kind: 'project', containerId: projectId }))!).toMatchObject({ storage: 'second', readOnly: false });
    stalled.open();
    await run;
  });
});

import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { git, repositoriesServiceRef } from '@forgekit/plugin-repositories';
import { RepositoryStorageMoveEntity } from '../entities/repository-storage-move.js';
import { RECOVER_JOB } from '../plugin.js';
import { MOVE_JOB } from './move-scheduler.js';
import type { StorageMove } from '../contracts.js';
import { createMoveTestApp, projectWithCommits, until, waitForMove } from '../testing/move-test-app.js';

const refsOf = async (gitDir: string) => (await git(gitDir, ['for-each-ref', '--format=%(objectname) %(refname)'])).stdout.toString();

describe('a storage move that goes wrong', () => {
  let app: TestApp;
  /** What the next move does after its copy (before the switch). */
  let afterCopy: (move: StorageMove) => void | Promise<void> = () => undefined;
  let afterCopyCalls = 0;

  beforeAll(async () => {
    app = await createMoveTestApp({
      afterCopy: async (move) => {
        afterCopyCalls++;
        await afterCopy(move);
      },
    });
  });
  /** Lets a move that was left hanging finish, so the app can stop. */
  let unstick: () => void = () => {};
  afterAll(async () => {
    unstick();
    await app.close();
  });

  const schedule = (projectId: number) =>
    app.post(`/api/v4/projects/${projectId}/repository_storage_moves`, { destination_storage_name: 'second' }, { token: 'admin' });

  it('interrupted after copying: fails, keeps the source intact and writable, and can be rescheduled', async () => {
    const projectId = await projectWithCommits(app, 'Interrupted');
    const repos = app.kernel.resolve(repositoriesServiceRef);
    const source = (await repos.find({ kind: 'project', containerId: projectId }))!;
    const refsBefore = await refsOf(source.gitDir);
    const destination = repos.gitDirOn('second', source.diskPath);
    // A half-finished copy left behind by an earlier crash must not get in the way.
    await mkdir(`${destination}.move-999`, { recursive: true });
    await writeFile(`${destination}.move-999/garbage`, 'x');

    afterCopy = () => {
      expect(existsSync(destination)).toBe(true);
      throw new Error('Simulated crash after the copy');
    };
    const scheduled = await schedule(projectId);
    const failed = await waitForMove(app, `/api/v4/project_repository_storage_moves/${scheduled.body.id}`);
    expect(failed).toMatchObject({ state: 'failed', error_message: 'Simulated crash after the copy', source_storage_name: 'default' });

    const after = (await repos.find({ kind: 'project', containerId: projectId }))!;
    expect(after).toMatchObject({ storage: 'default', readOnly: false, gitDir: source.gitDir });
    expect(await refsOf(source.gitDir)).toBe(refsBefore);
    expect(existsSync(destination)).toBe(false);
    expect((await app.get(`/api/v4/projects/${projectId}`, { token: 'admin' })).body.repository_storage).toBe('default');
    expect((await app.get(`/api/v4/projects/${projectId}/repository/files/file-1.txt/raw`, { token: 'owner' })).text).toBe('content 1\n');
    const write = await app.post(
      `/api/v4/projects/${projectId}/repository/commits`,
      { branch: 'main', commit_message: 'Still writable', actions: [{ action: 'create', file_path: 'still.txt', content: 'yes' }] },
      { token: 'owner' },
    );
    expect(write.status).toBe(201);
    const refsWritten = await refsOf(source.gitDir);

    afterCopy = () => undefined;
    const again = await schedule(projectId);
    expect(again.status).toBe(201);
    expect((await waitForMove(app, `/api/v4/project_repository_storage_moves/${again.body.id}`)).state).toBe('finished');
    const moved = (await repos.find({ kind: 'project', containerId: projectId }))!;
    expect(moved.storage).toBe('second');
    expect(await refsOf(moved.gitDir)).toBe(refsWritten);
    expect(existsSync(source.gitDir)).toBe(false);
    expect(existsSync(`${destination}.move-999`)).toBe(true);
  });

  it('keeps the repository read-only while the move runs', async () => {
    const projectId = await projectWithCommits(app, 'Busy');
    let release!: () => void;
    const paused = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const copied = new Promise<void>((resolve) => (reached = resolve));
    afterCopy = async () => {
      reached();
      await paused;
    };
    const scheduled = await schedule(projectId);
    await copied;
    const write = await app.post(
      `/api/v4/projects/${projectId}/repository/commits`,
      { branch: 'main', commit_message: 'During the move', actions: [{ action: 'create', file_path: 'during.txt', content: 'no' }] },
      { token: 'owner' },
    );
    expect(write).toMatchObject({ status: 400, body: { message: 'The repository is temporarily read-only. Please try again later.' } });
    const branch = await app.post(`/api/v4/projects/${projectId}/repository/branches`, { branch: 'during', ref: 'main' }, { token: 'owner' });
    expect(branch).toMatchObject({ status: 400, body: { message: 'The repository is temporarily read-only. Please try again later.' } });
    expect((await app.get(`/api/v4/projects/${projectId}/repository_storage_moves/${scheduled.body.id}`, { token: 'admin' })).body.state).toBe('started');
    expect(await schedule(projectId)).toMatchObject({ status: 400, body: { message: { project: ['is read-only'] } } });
    expect((await app.get(`/api/v4/projects/${projectId}/repository/commits`, { token: 'owner' })).status).toBe(200);
    release();
    expect((await waitForMove(app, `/api/v4/project_repository_storage_moves/${scheduled.body.id}`)).state).toBe('finished');
    afterCopy = () => undefined;
  });

  it('runs each move once, however many times its job is delivered', async () => {
    const projectId = await projectWithCommits(app, 'Once');
    let release!: () => void;
    const paused = new Promise<void>((resolve) => (release = resolve));
    afterCopy = () => paused;
    const calls = afterCopyCalls;
    const scheduled = await schedule(projectId);
    // Deliver the same job twice more while the first delivery is still running.
    const extra = [app.kernel.jobs.run(MOVE_JOB, { moveId: scheduled.body.id }), app.kernel.jobs.run(MOVE_JOB, { moveId: scheduled.body.id })];
    release();
    await Promise.all(extra);
    expect((await waitForMove(app, `/api/v4/project_repository_storage_moves/${scheduled.body.id}`)).state).toBe('finished');
    await app.kernel.jobs.run(MOVE_JOB, { moveId: scheduled.body.id });
    expect(afterCopyCalls - calls).toBe(1);
    afterCopy = () => undefined;
  });

  it('ends in `cleanup failed` and keeps the source when the source changed during the move', async () => {
    const projectId = await projectWithCommits(app, 'Raced');
    const repos = app.kernel.resolve(repositoriesServiceRef);
    const source = (await repos.find({ kind: 'project', containerId: projectId }))!;
    afterCopy = async () => {
      // Another server process writing past the read-only flag.
      await git(source.gitDir, ['update-ref', 'refs/heads/sneaky', 'refs/heads/main']);
    };
    const scheduled = await schedule(projectId);
    const move = await waitForMove(app, `/api/v4/project_repository_storage_moves/${scheduled.body.id}`);
    expect(move.state).toBe('cleanup failed');
    expect(move.error_message).toContain('The source repository changed during the move');
    expect(existsSync(source.gitDir)).toBe(true);
    expect((await repos.find({ kind: 'project', containerId: projectId }))!).toMatchObject({ storage: 'second', readOnly: false });
    afterCopy = () => undefined;
  });

  it('leaves no copy behind when the project is deleted in the middle of its move', async () => {
    const projectId = await projectWithCommits(app, 'Deleted midway');
    const repos = app.kernel.resolve(repositoriesServiceRef);
    const source = (await repos.find({ kind: 'project', containerId: projectId }))!;
    const destination = repos.gitDirOn('second', source.diskPath);
    let deleted!: () => void;
    const projectDeleted = new Promise<void>((resolve) => (deleted = resolve));
    afterCopy = async () => {
      expect(existsSync(destination)).toBe(true);
      expect((await app.delete(`/api/v4/projects/${projectId}`, { token: 'owner' })).status).toBe(202);
      deleted();
    };
    const scheduled = await schedule(projectId);
    expect(scheduled.status).toBe(201);
    await projectDeleted;
    // The move finds its row gone after the copy and removes what it copied.
    await until(() => !existsSync(destination), 'the move removes its copy');
    expect(existsSync(destination)).toBe(false);
    expect(existsSync(source.gitDir)).toBe(false);
    expect(await app.get(`/api/v4/project_repository_storage_moves/${scheduled.body.id}`, { token: 'admin' })).toMatchObject({ status: 404 });
    afterCopy = () => undefined;
  });

  it('fails moves whose process stopped, and makes their repositories writable again', async () => {
    const projectId = await projectWithCommits(app, 'Stuck');
    let reached!: () => void;
    const copied = new Promise<void>((resolve) => (reached = resolve));
    afterCopy = async () => {
      reached();
      await new Promise<void>((resolve) => (unstick = resolve));
    };
    const scheduled = await schedule(projectId);
    await copied;
    await app.kernel.database.update(RepositoryStorageMoveEntity, { id: scheduled.body.id }, { updatedAt: new Date(Date.now() - 2 * 3600_000) });
    await app.kernel.jobs.run(RECOVER_JOB, {});
    const move = (await app.get(`/api/v4/project_repository_storage_moves/${scheduled.body.id}`, { token: 'admin' })).body;
    expect(move).toMatchObject({ state: 'failed', error_message: 'The move stopped before it finished' });
    const repository = (await app.kernel.resolve(repositoriesServiceRef).find({ kind: 'project', containerId: projectId }))!;
    expect(repository).toMatchObject({ storage: 'default', readOnly: false });
    afterCopy = () => undefined;
  });
});

import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { git, repositoriesServiceRef } from '@forgekit/plugin-repositories';
import { createMoveTestApp, projectWithCommits, waitForMove } from '../testing/move-test-app.js';

describe('project repository storage moves', () => {
  let app: TestApp;
  let projectId: number;

  beforeAll(async () => {
    app = await createMoveTestApp();
    projectId = await projectWithCommits(app, 'Movable');
  });
  afterAll(() => app.close());

  const refsOf = async (gitDir: string) => (await git(gitDir, ['for-each-ref', '--format=%(objectname) %(refname)'])).stdout.toString();

  it('schedules a move (201, scheduled) that really copies, verifies, switches and cleans up', async () => {
    const repos = app.kernel.resolve(repositoriesServiceRef);
    const before = (await repos.find({ kind: 'project', containerId: projectId }))!;
    const refsBefore = await refsOf(before.gitDir);
    const commitsBefore = (await app.get(`/api/v4/projects/${projectId}/repository/commits`, { token: 'owner' })).body;

    const res = await app.post(`/api/v4/projects/${projectId}/repository_storage_moves`, { destination_storage_name: 'second' }, { token: 'admin' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      state: 'scheduled',
      source_storage_name: 'default',
      destination_storage_name: 'second',
      error_message: null,
      project: {
        id: projectId,
        name: 'Movable',
        name_with_namespace: 'Test Group / Movable',
        path: 'movable',
        path_with_namespace: 'test-group/movable',
        description: '',
      },
    });
    expect(res.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    const move = await waitForMove(app, `/api/v4/project_repository_storage_moves/${res.body.id}`);
    expect(move.state).toBe('finished');

    const after = (await repos.find({ kind: 'project', containerId: projectId }))!;
    expect(after).toMatchObject({ storage: 'second', readOnly: false, diskPath: before.diskPath });
    expect(after.gitDir).not.toBe(before.gitDir);
    expect(existsSync(before.gitDir)).toBe(false);
    expect(await refsOf(after.gitDir)).toBe(refsBefore);
    expect((await git(after.gitDir, ['fsck', '--no-progress'])).code).toBe(0);

    expect((await app.get(`/api/v4/projects/${projectId}`, { token: 'admin' })).body.repository_storage).toBe('second');
    expect((await app.get(`/api/v4/projects/${projectId}/repository/commits`, { token: 'owner' })).body).toEqual(commitsBefore);
    const write = await app.post(
      `/api/v4/projects/${projectId}/repository/commits`,
      { branch: 'main', commit_message: 'After the move', actions: [{ action: 'create', file_path: 'after.txt', content: 'x' }] },
      { token: 'owner' },
    );
    expect(write.status).toBe(201);
  });

  it('picks a destination by weight when none is given, never the source', async () => {
    const res = await app.post(`/api/v4/projects/${projectId}/repository_storage_moves`, {}, { token: 'admin' });
    expect(res.body).toMatchObject({ state: 'scheduled', source_storage_name: 'second', destination_storage_name: 'default' });
    expect((await waitForMove(app, `/api/v4/projects/${projectId}/repository_storage_moves/${res.body.id}`)).state).toBe('finished');
  });

  it('lists moves newest first, for all projects and for one, with pagination', async () => {
    const all = await app.get('/api/v4/project_repository_storage_moves', { token: 'admin' });
    expect(all.status).toBe(200);
    expect(all.body.map((move: { destination_storage_name: string }) => move.destination_storage_name)).toEqual(['default', 'second']);
    expect(all.headers.get('x-total')).toBe('2');
    const own = await app.get(`/api/v4/projects/${projectId}/repository_storage_moves`, { token: 'admin', query: { per_page: 1 } });
    expect(own.body).toHaveLength(1);
    expect(own.headers.get('x-next-page')).toBe('2');
    expect(own.body[0].state).toBe('finished');
  });

  it('answers GitLab’s validation errors', async () => {
    expect(await app.post(`/api/v4/projects/${projectId}/repository_storage_moves`, { destination_storage_name: 'nowhere' }, { token: 'admin' })).toMatchObject(
      {
        status: 400,
        body: { message: { destination_storage_name: ['is not included in the list'] } },
      },
    );
    expect(await app.post(`/api/v4/projects/${projectId}/repository_storage_moves`, { destination_storage_name: '' }, { token: 'admin' })).toMatchObject({
      status: 400,
      body: { message: { destination_storage_name: ["can't be blank", 'is not included in the list'] } },
    });
    const repos = app.kernel.resolve(repositoriesServiceRef);
    const repository = (await repos.find({ kind: 'project', containerId: projectId }))!;
    await repos.setReadOnly([repository.id], true);
    expect(await app.post(`/api/v4/projects/${projectId}/repository_storage_moves`, { destination_storage_name: 'second' }, { token: 'admin' })).toMatchObject({
      status: 400,
      body: { message: { project: ['is read-only'] } },
    });
    await repos.setReadOnly([repository.id], false);
  });

  it('answers 404s and is for administrators only', async () => {
    expect(await app.get('/api/v4/project_repository_storage_moves/999', { token: 'admin' })).toMatchObject({
      status: 404,
      body: { message: '404 Not found' },
    });
    expect(await app.get(`/api/v4/projects/${projectId}/repository_storage_moves/999`, { token: 'admin' })).toMatchObject({
      status: 404,
      body: { message: '404 Not found' },
    });
    expect(await app.get('/api/v4/projects/999/repository_storage_moves', { token: 'admin' })).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
    expect(await app.post('/api/v4/projects/999/repository_storage_moves', {}, { token: 'admin' })).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
    expect(await app.get('/api/v4/project_repository_storage_moves/abc', { token: 'admin' })).toMatchObject({
      status: 400,
      body: { error: 'repository_storage_move_id is invalid' },
    });
    expect(await app.get('/api/v4/project_repository_storage_moves', { token: 'owner' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await app.post(`/api/v4/projects/${projectId}/repository_storage_moves`, {}, { token: 'owner' })).toMatchObject({ status: 403 });
    expect(await app.get('/api/v4/project_repository_storage_moves')).toMatchObject({ status: 401 });
  });

  it('moves every project of a storage in bulk (202), after which none is left there', async () => {
    await projectWithCommits(app, 'Bulk one');
    await projectWithCommits(app, 'Bulk two');
    expect(await app.post('/api/v4/project_repository_storage_moves', { source_storage_name: 'nowhere' }, { token: 'admin' })).toMatchObject({
      status: 400,
      body: { error: 'source_storage_name does not have a valid value' },
    });
    expect(await app.post('/api/v4/project_repository_storage_moves', {}, { token: 'admin' })).toMatchObject({
      status: 400,
      body: { error: 'source_storage_name is missing, source_storage_name does not have a valid value' },
    });
    expect(
      await app.post('/api/v4/project_repository_storage_moves', { source_storage_name: 'default', destination_storage_name: 'else' }, { token: 'admin' }),
    ).toMatchObject({
      status: 400,
      body: { error: 'destination_storage_name does not have a valid value' },
    });

    const onDefault = (await app.get('/api/v4/projects', { token: 'admin', query: { repository_storage: 'default' } })).body.map((p: { id: number }) => p.id);
    expect(onDefault.length).toBeGreaterThanOrEqual(3);
    const res = await app.post(
      '/api/v4/project_repository_storage_moves',
      { source_storage_name: 'default', destination_storage_name: 'second' },
      { token: 'admin' },
    );
    expect(res).toMatchObject({ status: 202, body: { message: '202 Accepted' } });

    for (const id of onDefault) {
      let moves: { id: number; destination_storage_name: string }[] = [];
      for (let attempt = 0; attempt < 1500 && moves.length === 0; attempt++) {
        moves = (await app.get(`/api/v4/projects/${id}/repository_storage_moves`, { token: 'admin' })).body.filter(
          (move: { destination_storage_name: string; state: string }) => move.destination_storage_name === 'second',
        );
        if (moves.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect((await waitForMove(app, `/api/v4/project_repository_storage_moves/${moves[0]!.id}`)).state).toBe('finished');
    }
    expect((await app.get('/api/v4/projects', { token: 'admin', query: { repository_storage: 'default' } })).body).toEqual([]);
    const readme = await app.get(`/api/v4/projects/${onDefault[0]}/repository/files/README.md/raw`, { token: 'owner' });
    expect(readme.status).toBe(200);
  });

  it('moves the repository when an admin changes repository_storage on the project', async () => {
    const res = await app.put(`/api/v4/projects/${projectId}`, { repository_storage: 'second' }, { token: 'admin' });
    expect(res.status).toBe(200);
    const moves = (await app.get(`/api/v4/projects/${projectId}/repository_storage_moves`, { token: 'admin' })).body;
    expect(moves[0]).toMatchObject({ source_storage_name: 'default', destination_storage_name: 'second' });
    expect((await waitForMove(app, `/api/v4/project_repository_storage_moves/${moves[0].id}`)).state).toBe('finished');
    expect((await app.get(`/api/v4/projects/${projectId}`, { token: 'admin' })).body.repository_storage).toBe('second');
  });
});

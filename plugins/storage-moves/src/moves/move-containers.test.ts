import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { git, repositoriesServiceRef, type RepositoryKind } from '@forgekit/plugin-repositories';
import { createMoveTestApp, waitForMove } from '../testing/move-test-app.js';

describe('snippet and group wiki repository storage moves', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createMoveTestApp();
  });
  afterAll(() => app.close());

  /** A repository of another kind (what the snippets or wiki plugins create), with one commit. */
  async function seed(kind: RepositoryKind, containerId: number) {
    const repos = app.kernel.resolve(repositoriesServiceRef);
    const repository = await repos.ensure({ kind, containerId });
    const who = { id: app.users.owner.id, username: 'owner', name: 'Owner User', email: 'owner@example.com' };
    await repos.commitFiles(
      repository,
      {
        branch: 'main',
        message: 'Content',
        author: who,
        committer: who,
        actions: [{ action: 'create', filePath: 'content.md', content: Buffer.from('hello') }],
      },
      who,
    );
    return repository;
  }

  it('moves a snippet repository and shows the snippet', async () => {
    const repository = await seed('snippet', 77);
    const refs = (await git(repository.gitDir, ['for-each-ref'])).stdout.toString();
    const res = await app.post('/api/v4/snippets/77/repository_storage_moves', { destination_storage_name: 'second' }, { token: 'admin' });
    expect(res).toMatchObject({
      status: 201,
      body: { state: 'scheduled', source_storage_name: 'default', destination_storage_name: 'second', snippet: { id: 77 } },
    });
    expect((await waitForMove(app, `/api/v4/snippet_repository_storage_moves/${res.body.id}`)).state).toBe('finished');
    const moved = (await app.kernel.resolve(repositoriesServiceRef).find({ kind: 'snippet', containerId: 77 }))!;
    expect(moved.storage).toBe('second');
    expect(existsSync(repository.gitDir)).toBe(false);
    expect((await git(moved.gitDir, ['for-each-ref'])).stdout.toString()).toBe(refs);

    const list = await app.get('/api/v4/snippets/77/repository_storage_moves', { token: 'admin' });
    expect(list.body.map((move: { id: number }) => move.id)).toEqual([res.body.id]);
    expect(await app.get('/api/v4/snippets/999/repository_storage_moves', { token: 'admin' })).toMatchObject({
      status: 404,
      body: { message: '404 Snippet Not Found' },
    });
    expect(await app.get(`/api/v4/project_repository_storage_moves/${res.body.id}`, { token: 'admin' })).toMatchObject({
      status: 404,
      body: { message: '404 Not found' },
    });
  });

  it('shows snippets the way the plugin that owns them describes them', async () => {
    app.kernel.resolve(repositoriesServiceRef).describeContainers('snippet', {
      exists: async (id) => id === 77,
      present: async (ids) => new Map(ids.map((id) => [id, { id, title: `Snippet ${id}` }])),
    });
    const res = await app.get('/api/v4/snippet_repository_storage_moves', { token: 'admin' });
    expect(res.body[0].snippet).toEqual({ id: 77, title: 'Snippet 77' });
  });

  it('moves snippets in bulk', async () => {
    await seed('snippet', 78);
    const res = await app.post(
      '/api/v4/snippet_repository_storage_moves',
      { source_storage_name: 'default', destination_storage_name: 'second' },
      { token: 'admin' },
    );
    expect(res).toMatchObject({ status: 202, body: { message: '202 Accepted' } });
    let move: { id: number } | undefined;
    for (let attempt = 0; attempt < 1500 && !move; attempt++) {
      move = (await app.get('/api/v4/snippet_repository_storage_moves', { token: 'admin' })).body.find(
        (m: { snippet: { id: number } }) => m.snippet?.id === 78,
      );
      if (!move) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await waitForMove(app, `/api/v4/snippet_repository_storage_moves/${move!.id}`)).state).toBe('finished');
    expect((await app.kernel.resolve(repositoriesServiceRef).find({ kind: 'snippet', containerId: 78 }))!.storage).toBe('second');
  });

  it('answers GitLab’s errors for snippet and group moves', async () => {
    for (const [kind, plural, missing] of [
      ['snippet', 'snippets', '404 Snippet Not Found'],
      ['group', 'groups', '404 Group Not Found'],
    ] as const) {
      expect(await app.get(`/api/v4/${kind}_repository_storage_moves/999`, { token: 'admin' })).toMatchObject({
        status: 404,
        body: { message: '404 Not found' },
      });
      expect(await app.post(`/api/v4/${plural}/999/repository_storage_moves`, { destination_storage_name: 'second' }, { token: 'admin' })).toMatchObject({
        status: 404,
        body: { message: missing },
      });
      expect(await app.get(`/api/v4/${plural}/999/repository_storage_moves/1`, { token: 'admin' })).toMatchObject({ status: 404, body: { message: missing } });
      expect(await app.post(`/api/v4/${kind}_repository_storage_moves`, { source_storage_name: 'nowhere' }, { token: 'admin' })).toMatchObject({
        status: 400,
        body: { error: 'source_storage_name does not have a valid value' },
      });
      expect(await app.get(`/api/v4/${kind}_repository_storage_moves`, { token: 'owner' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
      expect(await app.get(`/api/v4/${kind}_repository_storage_moves`)).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    }
    expect(await app.post('/api/v4/snippets/77/repository_storage_moves', { destination_storage_name: 'nowhere' }, { token: 'admin' })).toMatchObject({
      status: 400,
      body: { message: { destination_storage_name: ['is not included in the list'] } },
    });
  });

  it('moves a group wiki repository and shows the group', async () => {
    await seed('group_wiki', app.group.id);
    const res = await app.post(`/api/v4/groups/${app.group.id}/repository_storage_moves`, { destination_storage_name: 'second' }, { token: 'admin' });
    expect(res).toMatchObject({
      status: 201,
      body: { state: 'scheduled', group: { id: app.group.id, name: 'Test Group', web_url: 'http://localhost/groups/test-group' } },
    });
    expect((await waitForMove(app, `/api/v4/group_repository_storage_moves/${res.body.id}`)).state).toBe('finished');
    expect((await app.kernel.resolve(repositoriesServiceRef).find({ kind: 'group_wiki', containerId: app.group.id }))!.storage).toBe('second');
    expect((await app.get(`/api/v4/groups/${app.group.id}/repository_storage_moves/${res.body.id}`, { token: 'admin' })).body.state).toBe('finished');
    expect(await app.get('/api/v4/groups/999/repository_storage_moves', { token: 'admin' })).toMatchObject({
      status: 404,
      body: { message: '404 Group Not Found' },
    });
    expect(await app.post('/api/v4/group_repository_storage_moves', { source_storage_name: 'second' }, { token: 'owner' })).toMatchObject({ status: 403 });
  });
});

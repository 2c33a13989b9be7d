import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { notesPlugin } from '@forgekit/plugin-notes';
import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { repositoryReadRef } from '@forgekit/plugin-repositories/contracts';
import { storageMovesPlugin } from '@forgekit/plugin-storage-moves';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snippetsPlugin } from '../plugin.js';

describe('moving snippet repositories between storages', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({
      plugins: [repositoriesPlugin, storageMovesPlugin, notesPlugin, snippetsPlugin],
      config: { plugins: { repositories: { storages: { second: 'second-storage' } } } },
    });
  });
  afterAll(() => app.close());

  it('moves a snippet’s repository, shows the snippet on the move, and keeps its files readable', async () => {
    const snippet = (
      await app.post(
        '/api/v4/snippets',
        { title: 'Moving', visibility: 'public', files: [{ file_path: 'a.txt', content: 'still here' }] },
        { token: 'developer' },
      )
    ).body;
    const res = await app.post(`/api/v4/snippets/${snippet.id}/repository_storage_moves`, { destination_storage_name: 'second' }, { token: 'admin' });
    expect(res.status).toBe(201);
    expect(res.body.snippet).toEqual({
      id: snippet.id,
      title: 'Moving',
      description: null,
      visibility: 'public',
      updated_at: snippet.updated_at,
      created_at: snippet.created_at,
      project_id: null,
      web_url: snippet.web_url,
      raw_url: snippet.raw_url,
      ssh_url_to_repo: snippet.ssh_url_to_repo,
      http_url_to_repo: snippet.http_url_to_repo,
    });
    await expect
      .poll(async () => (await app.get(`/api/v4/snippet_repository_storage_moves/${res.body.id}`, { token: 'admin' })).body.state, { timeout: 30_000 })
      .toBe('finished');
    const repository = await app.kernel.resolve(repositoryReadRef).find({ kind: 'snippet', containerId: snippet.id });
    expect(repository?.storage).toBe('second');
    expect((await app.get(`/api/v4/snippets/${snippet.id}/raw`)).text).toBe('still here');
    const missing = await app.post('/api/v4/snippets/999999/repository_storage_moves', { destination_storage_name: 'second' }, { token: 'admin' });
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Snippet Not Found' }]);
  });
});

import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { notesPlugin } from '@forgekit/plugin-notes';
import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { repositoryReadRef } from '@forgekit/plugin-repositories/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snippetsPlugin } from '../plugin.js';

let app: TestApp;
let base: string;
/** A public project of the owner's own namespace: every other seeded user is a stranger there. */
let open: { id: number; path_with_namespace: string };
const ids: Record<string, number> = {};

const files = [{ file_path: 'main.py', content: 'print(1)\n' }];

beforeAll(async () => {
  app = await createTestApp({ plugins: [repositoriesPlugin, notesPlugin, snippetsPlugin] });
  base = `/api/v4/projects/${app.project.id}/snippets`;
  open = (await app.post('/api/v4/projects', { name: 'Open', path: 'open', visibility: 'public' }, { token: 'owner' })).body;
  for (const visibility of ['public', 'internal', 'private']) {
    const res = await app.post(`/api/v4/projects/${open.id}/snippets`, { title: visibility, visibility, files }, { token: 'owner' });
    expect(res.status).toBe(201);
    ids[visibility] = res.body.id;
  }
});
afterAll(() => app.close());

describe('POST /projects/:id/snippets', () => {
  it('creates a project snippet for a Reporter, with the project’s URL shapes', async () => {
    const res = await app.post(base, { title: 'Ours', visibility: 'private', files }, { token: 'reporter' });
    expect(res.status).toBe(201);
    const id = res.body.id;
    const root = res.body.web_url.slice(0, res.body.web_url.indexOf('/test-group/'));
    const host = new URL(root).hostname;
    expect(res.body).toMatchObject({
      project_id: app.project.id,
      visibility: 'private',
      web_url: `${root}/test-group/test-project/-/snippets/${id}`,
      raw_url: `${root}/test-group/test-project/-/snippets/${id}/raw`,
      http_url_to_repo: `${root}/test-group/test-project/snippets/${id}.git`,
      ssh_url_to_repo: `git@${host}:test-group/test-project/snippets/${id}.git`,
      files: [{ path: 'main.py', raw_url: `${root}/test-group/test-project/-/snippets/${id}/raw/main/main.py` }],
    });
  });

  it('requires visibility, and refuses Guests (403), strangers (404) and anonymous callers (401)', async () => {
    const missing = await app.post(base, { title: 't', files }, { token: 'reporter' });
    expect([missing.status, missing.body]).toEqual([400, { error: 'visibility is missing, visibility does not have a valid value' }]);
    const guest = await app.post(base, { title: 't', visibility: 'private', files }, { token: 'guest' });
    expect([guest.status, guest.body]).toEqual([403, { message: '403 Forbidden' }]);
    const stranger = await app.post(base, { title: 't', visibility: 'private', files }, { token: 'nonMember' });
    expect([stranger.status, stranger.body]).toEqual([404, { message: '404 Project Not Found' }]);
    expect((await app.post(base, { title: 't', visibility: 'private', files })).status).toBe(401);
  });
});

describe('reading project snippets', () => {
  it('follows the project snippet read matrix', async () => {
    const matrix: [string | undefined, string, number][] = [
      [undefined, 'public', 200],
      [undefined, 'internal', 404],
      [undefined, 'private', 404],
      ['guest', 'public', 200],
      ['guest', 'internal', 200],
      ['guest', 'private', 404],
      ['owner', 'private', 200],
      ['admin', 'private', 200],
    ];
    for (const [token, visibility, status] of matrix) {
      const one = await app.get(`/api/v4/projects/${open.id}/snippets/${ids[visibility]}`, { token });
      expect([token, visibility, one.status]).toEqual([token, visibility, status]);
      if (status === 404) expect(one.body).toEqual({ message: '404 Not found' });
      const rawFile = await app.get(`/api/v4/projects/${open.id}/snippets/${ids[visibility]}/raw`, { token });
      expect(rawFile.status).toBe(status);
      if (status === 404) expect(rawFile.body).toEqual({ message: '404 Snippet Not Found' });
      else expect(rawFile.text).toBe('print(1)\n');
      const file = await app.get(`/api/v4/projects/${open.id}/snippets/${ids[visibility]}/files/main/main.py/raw`, { token });
      expect(file.status).toBe(status);
      const byId = await app.get(`/api/v4/snippets/${ids[visibility]}`, { token });
      expect(byId.status).toBe(status);
    }
  });

  it('hides a private project’s public snippet from strangers with 404 Project Not Found; Guests see private ones', async () => {
    const res = await app.post(base, { title: 'Public in private', visibility: 'public', files }, { token: 'developer' });
    const stranger = await app.get(`${base}/${res.body.id}`, { token: 'nonMember' });
    expect([stranger.status, stranger.body]).toEqual([404, { message: '404 Project Not Found' }]);
    expect((await app.get(`/api/v4/snippets/${res.body.id}`, { token: 'nonMember' })).status).toBe(404);
    const hidden = await app.post(base, { title: 'Private', visibility: 'private', files }, { token: 'developer' });
    expect((await app.get(`${base}/${hidden.body.id}`, { token: 'guest' })).status).toBe(200);
  });

  it('lists what the caller may see, newest first', async () => {
    const stranger = await app.get(`/api/v4/projects/${open.id}/snippets`, { token: 'guest' });
    expect(stranger.status).toBe(200);
    expect(stranger.body.map((s: { id: number }) => s.id)).toEqual([ids.internal, ids.public]);
    const member = await app.get(`/api/v4/projects/${open.id}/snippets`, { token: 'owner' });
    expect(member.body.map((s: { id: number }) => s.id)).toEqual([ids.private, ids.internal, ids.public]);
    expect(member.headers.get('x-total')).toBe('3');
    expect(member.body[0]).toMatchObject({ project_id: open.id, file_name: 'main.py', author: { username: 'owner' } });
    expect((await app.get(`/api/v4/projects/${open.id}/snippets`)).status).toBe(401);
  });
});

describe('changing project snippets', () => {
  it('lets the author and Maintainers update and delete, and no one else', async () => {
    const snippet = (await app.post(base, { title: 'Reporter’s', visibility: 'internal', files }, { token: 'reporter' })).body;
    const developer = await app.put(`${base}/${snippet.id}`, { title: 'x' }, { token: 'developer' });
    expect([developer.status, developer.body]).toEqual([403, { message: '403 Forbidden' }]);
    const author = await app.put(
      `${base}/${snippet.id}`,
      { title: 'By author', files: [{ action: 'update', file_path: 'main.py', content: 'print(2)\n' }] },
      { token: 'reporter' },
    );
    expect(author.status).toBe(200);
    expect(author.body.title).toBe('By author');
    expect((await app.get(`${base}/${snippet.id}/raw`, { token: 'guest' })).text).toBe('print(2)\n');
    expect((await app.put(`${base}/${snippet.id}`, { title: 'By maintainer' }, { token: 'maintainer' })).status).toBe(200);
    expect((await app.delete(`${base}/${snippet.id}`, { token: 'developer' })).status).toBe(403);
    const missing = await app.put(`${base}/999999`, { title: 'x' }, { token: 'maintainer' });
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Snippet Not Found' }]);
    expect((await app.delete(`${base}/${snippet.id}`, { token: 'maintainer' })).status).toBe(204);
    expect((await app.get(`${base}/${snippet.id}`, { token: 'maintainer' })).status).toBe(404);
  });
});

describe('the snippets feature', () => {
  it('answers 403 on every route, even to admins, when disabled', async () => {
    const project = (await app.post('/api/v4/projects', { name: 'Closed', path: 'closed', namespace_id: app.group.id }, { token: 'owner' })).body;
    const snippet = (await app.post(`/api/v4/projects/${project.id}/snippets`, { title: 's', visibility: 'private', files }, { token: 'owner' })).body;
    expect((await app.put(`/api/v4/projects/${project.id}`, { snippets_access_level: 'disabled' }, { token: 'owner' })).status).toBe(200);
    const path = `/api/v4/projects/${project.id}/snippets`;
    for (const token of ['owner', 'admin']) {
      for (const res of [
        await app.get(path, { token }),
        await app.get(`${path}/${snippet.id}`, { token }),
        await app.get(`${path}/${snippet.id}/raw`, { token }),
        await app.post(path, { title: 's', visibility: 'private', files }, { token }),
        await app.put(`${path}/${snippet.id}`, { title: 'x' }, { token }),
        await app.delete(`${path}/${snippet.id}`, { token }),
        await app.get(`${path}/${snippet.id}/notes`, { token }),
      ]) {
        expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden' }]);
      }
    }
  });
});

describe('notes and removal', () => {
  it('serves the notes of a readable project snippet, 404 Snippet Not Found otherwise', async () => {
    const notes = await app.get(`/api/v4/projects/${open.id}/snippets/${ids.public}/notes`, { token: 'guest' });
    expect([notes.status, notes.body]).toEqual([200, []]);
    const hidden = await app.get(`/api/v4/projects/${open.id}/snippets/${ids.private}/notes`, { token: 'guest' });
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Snippet Not Found' }]);
  });

  it('removes a deleted project’s snippets and their repositories', async () => {
    const project = (await app.post('/api/v4/projects', { name: 'Doomed', path: 'doomed', namespace_id: app.group.id }, { token: 'owner' })).body;
    const snippet = (await app.post(`/api/v4/projects/${project.id}/snippets`, { title: 's', visibility: 'private', files }, { token: 'owner' })).body;
    const reads = app.kernel.resolve(repositoryReadRef);
    expect(await reads.find({ kind: 'snippet', containerId: snippet.id })).not.toBeNull();
    expect((await app.delete(`/api/v4/projects/${project.id}`, { token: 'owner' })).status).toBe(202);
    await expect.poll(async () => (await app.get(`/api/v4/snippets/${snippet.id}`, { token: 'admin' })).status).toBe(404);
    await expect.poll(async () => reads.find({ kind: 'snippet', containerId: snippet.id })).toBeNull();
  });
});

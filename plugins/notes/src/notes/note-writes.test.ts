import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notesServiceRef } from '../contracts.js';
import { notesPlugin } from '../plugin.js';
import { noteableFixture } from '../testing/noteable-fixture.js';

let app: TestApp;
let path: string;

beforeAll(async () => {
  app = await createTestApp({ plugins: [notesPlugin, noteableFixture] });
  path = `/api/v4/projects/${app.project.id}/issues/7/notes`;
});
afterAll(() => app.close());

const bodies = (res: { body: { body: string }[] }) => res.body.map((note) => note.body);

describe('creating notes', () => {
  it('creates a comment for any reader, answers 201 with the Note, and counts it', async () => {
    const res = await app.post(path, { body: 'first comment' }, { token: 'guest' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      type: null,
      body: 'first comment',
      author: { id: app.users.guest.id, username: 'guest' },
      system: false,
      noteable_id: 700,
      noteable_type: 'Issue',
      noteable_iid: 7,
      project_id: app.project.id,
      resolvable: false,
      internal: false,
      confidential: false,
    });
    expect(res.body).not.toHaveProperty('resolved');
    expect((await app.kernel.resolve(notesServiceRef).userNoteCounts('Issue', [700])).get(700)).toBe(1);
    expect(await app.get(`${path}/${res.body.id}`, { token: 'reporter' })).toMatchObject({ status: 200, body: { id: res.body.id, body: 'first comment' } });
  });

  it('answers GitLab’s errors for a missing, blank or over-long body and for unknown noteables', async () => {
    expect(await app.post(path, {}, { token: 'guest' })).toMatchObject({ status: 400, body: { error: 'body is missing' } });
    expect(await app.post(path, { body: '  ' }, { token: 'guest' })).toMatchObject({
      status: 400,
      body: { message: '400 Bad request - Note {:note=>["can\'t be blank"]}' },
    });
    expect(await app.post(path, { body: 'x'.repeat(1_000_001) }, { token: 'guest' })).toMatchObject({
      status: 400,
      body: { message: '400 Bad request - Note is too long (maximum is 1000000 characters)' },
    });
    expect(await app.post(path, { body: 'x' }, { token: null })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await app.post(path, { body: 'x' }, { token: 'nonMember' })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await app.post(`/api/v4/projects/${app.project.id}/issues/8/notes`, { body: 'x' }, { token: 'guest' })).toMatchObject({
      status: 404,
      body: { message: '404 Not found' },
    });
  });

  it('keeps internal notes from Reporter up, drops the flag silently below, and hides internal notes from guests', async () => {
    const guest = await app.post(path, { body: 'guest internal', internal: true }, { token: 'guest' });
    expect(guest).toMatchObject({ status: 201, body: { internal: false, confidential: false } });
    const reporter = await app.post(path, { body: 'reporter internal', confidential: true }, { token: 'reporter' });
    expect(reporter.body).toMatchObject({ internal: true, confidential: true });
    expect(bodies(await app.get(path, { token: 'guest' }))).not.toContain('reporter internal');
    expect(bodies(await app.get(path, { token: 'reporter' }))).toContain('reporter internal');
    expect(await app.get(`${path}/${reporter.body.id}`, { token: 'guest' })).toMatchObject({ status: 404, body: { message: '404 Note Not Found' } });
    expect(await app.get(`${path}/999999`, { token: 'guest' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
  });

  it('honours created_at for owners and administrators only', async () => {
    const at = '2020-01-02T03:04:05.000Z';
    const owner = await app.post(path, { body: 'backdated', created_at: at }, { token: 'owner' });
    expect(owner.body).toMatchObject({ created_at: at, updated_at: at });
    const admin = await app.post(path, { body: 'backdated by admin', created_at: at }, { token: 'admin' });
    expect(admin.body.created_at).toBe(at);
    const developer = await app.post(path, { body: 'not backdated', created_at: at }, { token: 'developer' });
    expect(developer.status).toBe(201);
    expect(developer.body.created_at).not.toBe(at);
  });

  it('adds an award emoji for a body of only an award emoji, keeping no note', async () => {
    const before = (await app.kernel.resolve(notesServiceRef).userNoteCounts('Issue', [700])).get(700);
    const res = await app.post(path, { body: ':+1:' }, { token: 'developer' });
    expect(res).toMatchObject({ status: 201, body: { id: null, body: ':+1:', noteable_type: 'Issue' } });
    expect((await app.kernel.resolve(notesServiceRef).userNoteCounts('Issue', [700])).get(700)).toBe(before);
    const awards = await app.get(`/api/v4/projects/${app.project.id}/issues/7/award_emoji`, { token: 'guest' });
    expect(awards.body).toMatchObject([{ name: 'thumbsup', user: { username: 'developer' }, awardable_id: 700, awardable_type: 'Issue' }]);
  });
});

describe('updating and deleting notes', () => {
  it('lets the author and administrators edit, answers others 403, and refuses a missing or blank body', async () => {
    const note = (await app.post(path, { body: 'to edit' }, { token: 'developer' })).body;
    expect(await app.put(`${path}/${note.id}`, { body: 'edited' }, { token: 'developer' })).toMatchObject({ status: 200, body: { body: 'edited' } });
    expect(await app.put(`${path}/${note.id}`, { body: 'by admin' }, { token: 'admin' })).toMatchObject({ status: 200, body: { body: 'by admin' } });
    expect(await app.put(`${path}/${note.id}`, { body: 'by maintainer' }, { token: 'maintainer' })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    });
    expect(await app.put(`${path}/${note.id}`, {}, { token: 'developer' })).toMatchObject({ status: 400, body: { error: 'body is missing' } });
    expect(await app.put(`${path}/${note.id}`, { body: '' }, { token: 'developer' })).toMatchObject({
      status: 400,
      body: { message: '400 Bad request - Note {:note=>["can\'t be blank"]}' },
    });
    expect((await app.get(`${path}/${note.id}`, { token: 'guest' })).body.body).toBe('by admin');
  });

  it('deletes with 204 for the author, 403 for others, 404 the second time and 412 for a stale If-Unmodified-Since', async () => {
    const note = (await app.post(path, { body: 'to delete' }, { token: 'developer' })).body;
    expect(await app.delete(`${path}/${note.id}`, { token: 'reporter' })).toMatchObject({ status: 403 });
    expect(await app.delete(`${path}/${note.id}`, { token: 'developer', headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 2015 00:00:00 GMT' } })).toMatchObject({
      status: 412,
      body: { message: '412 Precondition Failed' },
    });
    expect((await app.delete(`${path}/${note.id}`, { token: 'developer' })).status).toBe(204);
    expect(await app.delete(`${path}/${note.id}`, { token: 'developer' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
  });
});

describe('the note creation rate limit', () => {
  it('answers 429 past `notes_create_limit` notes a minute', async () => {
    expect((await app.get('/api/v4/application/settings', { token: 'admin' })).body.notes_create_limit).toBe(300);
    expect((await app.put('/api/v4/application/settings', { notes_create_limit: 2 }, { token: 'admin' })).status).toBe(200);
    try {
      for (const body of ['one', 'two']) expect((await app.post(path, { body }, { token: 'maintainer' })).status).toBe(201);
      const refused = await app.post(path, { body: 'three' }, { token: 'maintainer' });
      expect(refused).toMatchObject({
        status: 429,
        body: { message: { error: 'This endpoint has been requested too many times. Try again later.' } },
      });
      expect(bodies(await app.get(path, { token: 'maintainer', query: { per_page: 100 } }))).not.toContain('three');
      expect((await app.post(path, { body: 'other user' }, { token: 'owner' })).status).toBe(201);
    } finally {
      await app.put('/api/v4/application/settings', { notes_create_limit: 300 }, { token: 'admin' });
    }
  });
});

describe('deleting a user', () => {
  it('hands their notes to the Ghost User and removes their awards', async () => {
    const user = await app.post(
      '/api/v4/users',
      { username: 'leaving', name: 'Leaving', email: 'leaving@example.com', password: 'password1234' },
      { token: 'admin' },
    );
    await app.post(`/api/v4/projects/${app.project.id}/members`, { user_id: user.body.id, access_level: 10 }, { token: 'owner' });
    const note = await app.post(path, { body: 'bye' }, { token: 'admin', headers: { Sudo: 'leaving' } });
    expect(note).toMatchObject({ status: 201, body: { author: { username: 'leaving' } } });
    expect((await app.post(`${path}/${note.body.id}/award_emoji`, { name: 'wave' }, { token: 'admin', headers: { Sudo: 'leaving' } })).status).toBe(201);
    expect((await app.delete(`/api/v4/users/${user.body.id}`, { token: 'admin' })).status).toBe(204);
    await expect.poll(async () => (await app.get(`${path}/${note.body.id}`, { token: 'guest' })).body.author?.username).toBe('ghost');
    expect((await app.get(`${path}/${note.body.id}/award_emoji`, { token: 'guest' })).body).toEqual([]);
  });
});

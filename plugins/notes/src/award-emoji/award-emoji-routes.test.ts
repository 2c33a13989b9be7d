import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notesServiceRef } from '../contracts.js';
import { AwardEmojiEntity } from '../entities/award-emoji.js';
import { notesPlugin } from '../plugin.js';
import { noteableFixture } from '../testing/noteable-fixture.js';

let app: TestApp;
let base: string;

beforeAll(async () => {
  app = await createTestApp({ plugins: [notesPlugin, noteableFixture] });
  base = `/api/v4/projects/${app.project.id}/issues/7`;
});
afterAll(() => app.close());

describe('award emoji on a noteable', () => {
  it('awards, lists, gets and takes back an emoji', async () => {
    const award = await app.post(`${base}/award_emoji`, { name: 'tada' }, { token: 'guest' });
    expect(award.status).toBe(201);
    expect(award.body).toEqual({
      id: expect.any(Number),
      name: 'tada',
      user: expect.objectContaining({ id: app.users.guest.id, username: 'guest' }),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      awardable_id: 700,
      awardable_type: 'Issue',
      url: null,
    });
    const list = await app.get(`${base}/award_emoji`, { token: 'reporter' });
    expect(list.headers.get('x-total')).toBe('1');
    expect(list.body.map((a: { name: string }) => a.name)).toEqual(['tada']);
    expect(await app.get(`${base}/award_emoji/${award.body.id}`, { token: 'reporter' })).toMatchObject({ status: 200, body: { name: 'tada' } });
    expect(await app.delete(`${base}/award_emoji/${award.body.id}`, { token: 'reporter' })).toMatchObject({
      status: 401,
      body: { message: '401 Unauthorized' },
    });
    expect((await app.delete(`${base}/award_emoji/${award.body.id}`, { token: 'guest' })).status).toBe(204);
    expect(await app.get(`${base}/award_emoji/${award.body.id}`, { token: 'reporter' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
  });

  it('refuses unknown names and a second award of the same emoji', async () => {
    expect(await app.post(`${base}/award_emoji`, { name: 'no_such_emoji' }, { token: 'guest' })).toMatchObject({
      status: 404,
      body: { message: '404 Award Emoji {:name=>["is not a valid emoji name"]} Not Found' },
    });
    expect((await app.post(`${base}/award_emoji`, { name: 'thumbsdown' }, { token: 'guest' })).status).toBe(201);
    expect(await app.post(`${base}/award_emoji`, { name: '-1' }, { token: 'guest' })).toMatchObject({
      status: 404,
      body: { message: '404 Award Emoji {:name=>["has already been taken"]} Not Found' },
    });
    expect(await app.post(`${base}/award_emoji`, {}, { token: 'guest' })).toMatchObject({ status: 400, body: { error: 'name is missing' } });
    expect(await app.get(`${base}/award_emoji`, { token: 'nonMember' })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await app.get(`${base}/award_emoji`, { token: null })).toMatchObject({ status: 401 });
  });
});

describe('award emoji on a note', () => {
  it('awards notes the caller can read, and goes with the note', async () => {
    const note = (await app.post(`${base}/notes`, { body: 'nice' }, { token: 'developer' })).body;
    const award = await app.post(`${base}/notes/${note.id}/award_emoji`, { name: 'heart' }, { token: 'guest' });
    expect(award).toMatchObject({ status: 201, body: { name: 'heart', awardable_id: note.id, awardable_type: 'Note' } });
    expect((await app.get(`${base}/notes/${note.id}/award_emoji`, { token: 'guest' })).body).toHaveLength(1);

    const internal = (await app.post(`${base}/notes`, { body: 'internal', internal: true }, { token: 'reporter' })).body;
    expect(await app.post(`${base}/notes/${internal.id}/award_emoji`, { name: 'heart' }, { token: 'guest' })).toMatchObject({
      status: 404,
      body: { message: '404 Note Not Found' },
    });
    expect(await app.get(`${base}/notes/999999/award_emoji`, { token: 'guest' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });

    expect((await app.delete(`${base}/notes/${note.id}`, { token: 'developer' })).status).toBe(204);
    const left = await app.kernel.database.rows(app.kernel.database.from(AwardEmojiEntity).where({ awardableType: 'Note', awardableId: note.id }));
    expect(left).toEqual([]);
  });

  it('removes the awards of a removed noteable and of a deleted project', async () => {
    const count = () => app.kernel.database.count(app.kernel.database.table(AwardEmojiEntity));
    expect(await count()).toBeGreaterThan(0);
    await app.kernel.resolve(notesServiceRef).removeAllFor('Issue', 700);
    expect(await count()).toBe(0);
    await app.post(`${base}/award_emoji`, { name: 'rocket' }, { token: 'guest' });
    expect(await count()).toBe(1);
    expect((await app.delete(`/api/v4/projects/${app.project.id}`, { token: 'owner' })).status).toBe(202);
    expect(await count()).toBe(0);
  });
});

import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { issuesPlugin } from '../plugin.js';

let app: TestApp;
let base: string;

beforeEach(async () => {
  app = await createTestApp({ plugins: [labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, issuesPlugin] });
  base = `/api/v4/projects/${app.project.id}/issues`;
});
afterEach(() => app.close());

/** A project guest who authors an issue, closes it, and is then deleted; answers the issue's iid. */
async function issueOfDeletedUser(username: string, hardDelete = false): Promise<number> {
  const user = await app.post('/api/v4/users', { username, name: username, email: `${username}@example.org`, password: 'password1234' }, { token: 'admin' });
  expect(user.status).toBe(201);
  const token = (await app.post(`/api/v4/users/${user.body.id}/personal_access_tokens`, { name: 't', scopes: ['api'] }, { token: 'admin' })).body.token;
  expect((await app.post(`/api/v4/projects/${app.project.id}/members`, { user_id: user.body.id, access_level: 10 }, { token: 'owner' })).status).toBe(201);
  const issue = await app.post(base, { title: `By ${username}` }, { token });
  expect(issue.status).toBe(201);
  expect((await app.put(`${base}/${issue.body.iid}`, { state_event: 'close' }, { token })).status).toBe(200);
  expect((await app.delete(`/api/v4/users/${user.body.id}`, { token: 'admin', query: { hard_delete: hardDelete } })).status).toBe(204);
  return issue.body.iid;
}

it('hands a deleted user’s issues to the Ghost User, created once', async () => {
  const first = await issueOfDeletedUser('leaver');
  const shown = await app.get(`${base}/${first}`, { token: 'developer' });
  expect(shown.status).toBe(200);
  expect(shown.body.author).toMatchObject({ username: 'ghost', name: 'Ghost User', state: 'active' });
  expect(shown.body.closed_by).toBeNull();

  const second = await issueOfDeletedUser('another-leaver');
  const again = await app.get(`${base}/${second}`, { token: 'developer' });
  expect(again.body.author.id).toBe(shown.body.author.id);
  const ghost = await app.get(`/api/v4/users/${shown.body.author.id}`, { token: 'admin' });
  expect(ghost.body).toMatchObject({ username: 'ghost', name: 'Ghost User', state: 'active' });

  const mine = await app.get(base, { token: 'developer', query: { author_username: 'ghost' } });
  expect(mine.body.map((issue: { iid: number }) => issue.iid).sort()).toEqual([first, second].sort());
});

it('takes the next ghost name when someone holds `ghost`', async () => {
  const holder = await app.post(
    '/api/v4/users',
    { username: 'ghost', name: 'Real person', email: 'real@example.org', password: 'password1234' },
    { token: 'admin' },
  );
  expect(holder.status).toBe(201);
  const iid = await issueOfDeletedUser('leaver');
  const shown = await app.get(`${base}/${iid}`, { token: 'developer' });
  expect(shown.body.author).toMatchObject({ username: 'ghost1', name: 'Ghost User' });
});

it('creates no Ghost User for a user who authored nothing', async () => {
  const user = await app.post('/api/v4/users', { username: 'quiet', name: 'quiet', email: 'quiet@example.org', password: 'password1234' }, { token: 'admin' });
  expect((await app.delete(`/api/v4/users/${user.body.id}`, { token: 'admin' })).status).toBe(204);
  const found = await app.get('/api/v4/users', { token: 'admin', query: { username: 'ghost' } });
  expect(found.body).toEqual([]);
});

it('removes a hard-deleted user’s issues instead of handing them over', async () => {
  const kept = await app.post(base, { title: 'Stays' }, { token: 'developer' });
  const iid = await issueOfDeletedUser('hard-leaver', true);
  const gone = await app.get(`${base}/${iid}`, { token: 'developer' });
  expect(gone).toMatchObject({ status: 404, body: { message: '404 Not found' } });
  const left = await app.get(base, { token: 'developer' });
  expect(left.body.map((issue: { iid: number }) => issue.iid)).toEqual([kept.body.iid]);
});

it('refuses to delete the Ghost User', async () => {
  const iid = await issueOfDeletedUser('leaver');
  const ghostId = (await app.get(`${base}/${iid}`, { token: 'developer' })).body.author.id;
  for (const hard_delete of [false, true]) {
    const res = await app.delete(`/api/v4/users/${ghostId}`, { token: 'admin', query: { hard_delete } });
    expect(res).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
  }
  expect((await app.get(`/api/v4/users/${ghostId}`, { token: 'admin' })).body.username).toBe('ghost');
});

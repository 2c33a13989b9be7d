/**
 * Every documented error and role of the issue endpoints, with GitLab's exact status and body
 * (lib/api/issues.rb and spec/requests/api/issues/*; the shared error conventions of the fact sheet).
 */
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuesPlugin } from '../plugin.js';

let app: TestApp;
let base: string;
let publicBase: string;
let outsider: string;
let iid: number;

const NOT_FOUND = { message: '404 Not found' };
const PROJECT_NOT_FOUND = { message: '404 Project Not Found' };
const UNAUTHORIZED = { message: '401 Unauthorized' };
const FORBIDDEN = { message: '403 Forbidden' };

const expectReply = (res: { status: number; body: unknown }, status: number, body: unknown) =>
  expect({ status: res.status, body: res.body }).toEqual({ status, body });

beforeAll(async () => {
  app = await createTestApp({ plugins: [labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, issuesPlugin] });
  base = `/api/v4/projects/${app.project.id}/issues`;
  const user = await app.post(
    '/api/v4/users',
    { username: 'outsider', name: 'Outsider', email: 'outsider@example.com', password: 'password1234' },
    { token: 'admin' },
  );
  outsider = (await app.post(`/api/v4/users/${user.body.id}/personal_access_tokens`, { name: 't', scopes: ['api'] }, { token: 'admin' })).body.token;
  const open = await app.post('/api/v4/projects', { name: 'Open', visibility: 'public' }, { token: 'developer' });
  publicBase = `/api/v4/projects/${open.body.id}/issues`;
  iid = (await app.post(base, { title: 'Existing' }, { token: 'developer' })).body.iid;
});
afterAll(() => app.close());

describe('GET /issues', () => {
  it('needs a signed-in caller unless scope=all', async () => {
    expectReply(await app.get('/api/v4/issues', { token: null }), 401, UNAUTHORIZED);
    expectReply(await app.get('/api/v4/issues', { token: null, query: { scope: 'created_by_me' } }), 401, UNAUTHORIZED);
    expect((await app.get('/api/v4/issues', { token: null, query: { scope: 'all' } })).status).toBe(200);
  });

  it('refuses values outside the declared lists', async () => {
    const bad = async (query: Record<string, string>, error: string) =>
      expectReply(await app.get('/api/v4/issues', { token: 'developer', query }), 400, { error });
    await bad({ state: 'merged' }, 'state does not have a valid value');
    await bad({ order_by: 'weight' }, 'order_by does not have a valid value');
    await bad({ sort: 'up' }, 'sort does not have a valid value');
    await bad({ scope: 'mine' }, 'scope does not have a valid value');
    await bad({ due_date: 'later' }, 'due_date does not have a valid value');
    await bad({ milestone_id: '12' }, 'milestone_id does not have a valid value');
    await bad({ assignee_id: 'someone' }, 'assignee_id does not have a valid value');
    await bad({ iteration_id: 'Next' }, 'iteration_id does not have a valid value');
    await bad({ created_after: 'yesterday' }, 'created_after is invalid');
    await bad({ updated_before: 'soon' }, 'updated_before is invalid');
    await bad({ confidential: 'maybe' }, 'confidential is invalid');
    await bad({ author_id: 'me' }, 'author_id is invalid');
  });

  it('refuses mutually exclusive filters', async () => {
    const exclusive = async (query: Record<string, string>, error: string) =>
      expectReply(await app.get('/api/v4/issues', { token: 'developer', query }), 400, { error });
    await exclusive({ author_id: '1', author_username: 'x' }, 'author_id, author_username are mutually exclusive');
    await exclusive({ assignee_id: '1', assignee_username: 'x' }, 'assignee_id, assignee_username are mutually exclusive');
    await exclusive({ milestone: 'v1', milestone_id: 'Any' }, 'milestone, milestone_id are mutually exclusive');
    await exclusive({ iteration_id: 'Any', iteration_title: 'Sprint' }, 'iteration_id, iteration_title are mutually exclusive');
  });
});

describe('GET /issues/:id', () => {
  it('is for administrators, by global id', async () => {
    const issue = await app.get(`${base}/${iid}`, { token: 'developer' });
    const found = await app.get(`/api/v4/issues/${issue.body.id}`, { token: 'admin' });
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ id: issue.body.id, iid, title: 'Existing', project_id: app.project.id });
    expectReply(await app.get(`/api/v4/issues/${issue.body.id}`, { token: 'owner' }), 403, FORBIDDEN);
    expectReply(await app.get(`/api/v4/issues/${issue.body.id}`, { token: null }), 401, UNAUTHORIZED);
    expectReply(await app.get('/api/v4/issues/999999', { token: 'admin' }), 404, NOT_FOUND);
  });
});

describe('list params coerced as GitLab does', () => {
  it('takes one assignee_username as a list of one, and iids as a comma list', async () => {
    const mine = await app.post(base, { title: 'Assigned', assignee_ids: [app.users.developer.id] }, { token: 'developer' });
    const byName = await app.get(base, { token: 'guest', query: { assignee_username: app.users.developer.username } });
    expect(byName.status).toBe(200);
    expect(byName.body.map((issue: { iid: number }) => issue.iid)).toEqual([mine.body.iid]);
    const byIids = await app.get(base, { token: 'guest', query: { iids: `${iid},${mine.body.iid}` } });
    expect(byIids.status).toBe(200);
    expect(byIids.body.map((issue: { iid: number }) => issue.iid)).toEqual([mine.body.iid, iid]);
    expectReply(await app.get(base, { token: 'guest', query: { iids: 'one' } }), 400, { error: 'iids is invalid' });
  });
});

describe('GET /groups/:id/issues and /projects/:id/issues', () => {
  it('hide what the caller cannot see as 404 of the parent', async () => {
    expectReply(await app.get('/api/v4/groups/999999/issues', { token: 'developer' }), 404, { message: '404 Group Not Found' });
    expectReply(await app.get(`/api/v4/groups/${app.group.id}/issues`, { token: null }), 404, { message: '404 Group Not Found' });
    expectReply(await app.get(`/api/v4/groups/${app.group.id}/issues`, { token: outsider }), 404, { message: '404 Group Not Found' });
    expectReply(await app.get('/api/v4/projects/999999/issues', { token: 'developer' }), 404, PROJECT_NOT_FOUND);
    expectReply(await app.get(base, { token: null }), 404, PROJECT_NOT_FOUND);
    expectReply(await app.get(base, { token: outsider }), 404, PROJECT_NOT_FOUND);
  });

  it('let anyone read a public project’s issues', async () => {
    expect((await app.get(publicBase, { token: null })).status).toBe(200);
    expect((await app.get(publicBase, { token: outsider })).status).toBe(200);
  });

  it('validate params after finding the parent', async () => {
    expectReply(await app.get(base, { token: 'guest', query: { due_date: 'later' } }), 400, { error: 'due_date does not have a valid value' });
    expectReply(await app.get(base, { token: outsider, query: { due_date: 'later' } }), 404, PROJECT_NOT_FOUND);
  });
});

describe('GET /projects/:id/issues/:issue_iid', () => {
  it('answers GitLab’s 404s and the integer check', async () => {
    expectReply(await app.get(`${base}/999999`, { token: 'guest' }), 404, NOT_FOUND);
    expectReply(await app.get(`${base}/${iid}`, { token: outsider }), 404, PROJECT_NOT_FOUND);
    expectReply(await app.get(`${base}/${iid}`, { token: null }), 404, PROJECT_NOT_FOUND);
    expectReply(await app.get(`${base}/one`, { token: 'guest' }), 400, { error: 'issue_iid is invalid' });
  });

  it('hides a confidential issue from a guest who neither wrote nor holds it', async () => {
    const secret = await app.post(base, { title: 'Secret', confidential: true }, { token: 'developer' });
    expectReply(await app.get(`${base}/${secret.body.iid}`, { token: 'guest' }), 404, NOT_FOUND);
    expect((await app.get(`${base}/${secret.body.iid}`, { token: 'reporter' })).status).toBe(200);
  });
});

describe('POST /projects/:id/issues', () => {
  it('needs a signed-in caller who sees the project', async () => {
    expectReply(await app.post(base, { title: 'x' }, { token: null }), 401, UNAUTHORIZED);
    expectReply(await app.post(base, { title: 'x' }, { token: outsider }), 404, PROJECT_NOT_FOUND);
    expectReply(await app.post('/api/v4/projects/999999/issues', { title: 'x' }, { token: 'developer' }), 404, PROJECT_NOT_FOUND);
  });

  it('lets a guest, and any user on a public project, create', async () => {
    expect((await app.post(base, { title: 'By a guest' }, { token: 'guest' })).status).toBe(201);
    const stranger = await app.post(publicBase, { title: 'By a stranger', labels: 'fresh' }, { token: outsider });
    expect(stranger.status).toBe(201);
    // Who can only read the project cannot create labels with it.
    expect(stranger.body.labels).toEqual([]);
  });

  it('answers Grape’s and the model’s errors', async () => {
    expectReply(await app.post(base, {}, { token: 'developer' }), 400, { error: 'title is missing' });
    expectReply(await app.post(base, { labels: 'a,b' }, { token: 'developer' }), 400, { error: 'title is missing' });
    expectReply(await app.post(base, { title: 'g'.repeat(256) }, { token: 'developer' }), 400, {
      message: { title: ['is too long (maximum is 255 characters)'] },
    });
    expectReply(await app.post(base, { title: 'x', confidential: 'foo' }, { token: 'developer' }), 400, { error: 'confidential is invalid' });
    expectReply(await app.post(base, { title: 'x', assignee_ids: 'someone' }, { token: 'developer' }), 400, { error: 'assignee_ids is invalid' });
    expectReply(await app.post(base, { title: 'x', created_at: 'then' }, { token: 'developer' }), 400, { error: 'created_at is invalid' });
  });

  it('answers 409 for an iid already in use', async () => {
    expectReply(await app.post(base, { title: 'Same iid', iid }, { token: 'admin' }), 409, { message: 'Duplicated issue' });
    expect((await app.post(base, { title: 'Free iid', iid: 9001 }, { token: 'admin' })).body.iid).toBe(9001);
    expect((await app.post(base, { title: 'Ignored iid', iid: 9500 }, { token: 'developer' })).body.iid).not.toBe(9500);
  });

  it('takes special label names', async () => {
    const res = await app.post(base, { title: 'Special', labels: 'label, label?, label&foo, ?, &' }, { token: 'developer' });
    expect(res.status).toBe(201);
    expect(res.body.labels).toEqual(expect.arrayContaining(['label', 'label?', 'label&foo', '?', '&']));
  });
});

describe('PUT /projects/:id/issues/:issue_iid', () => {
  it('needs at least one field', async () => {
    const res = await app.put(`${base}/${iid}`, {}, { token: 'developer' });
    expectReply(res, 400, {
      error:
        'assignee_id, assignee_ids, confidential, created_at, description, discussion_locked, due_date, labels, add_labels, remove_labels, milestone_id, state_event, title, issue_type, iteration_id are missing, at least one parameter must be provided',
    });
  });

  it('answers 401, 404, 403 and validation errors in GitLab’s order', async () => {
    expectReply(await app.put(`${base}/${iid}`, { title: 'x' }, { token: null }), 401, UNAUTHORIZED);
    expectReply(await app.put(`${base}/${iid}`, { title: 'x' }, { token: outsider }), 404, PROJECT_NOT_FOUND);
    expectReply(await app.put(`${base}/999999`, { title: 'x' }, { token: 'developer' }), 404, NOT_FOUND);
    expectReply(await app.put(`${base}/${iid}`, { title: 'x' }, { token: 'guest' }), 403, FORBIDDEN);
    expectReply(await app.put(`${base}/${iid}`, { title: '' }, { token: 'developer' }), 400, { message: { title: ["can't be blank"] } });
    expectReply(await app.put(`${base}/${iid}`, { title: 'g'.repeat(256) }, { token: 'developer' }), 400, {
      message: { title: ['is too long (maximum is 255 characters)'] },
    });
    expectReply(await app.put(`${base}/${iid}`, { state_event: 'merge' }, { token: 'developer' }), 400, { error: 'state_event does not have a valid value' });
    expectReply(await app.put(`${base}/one`, { title: 'x' }, { token: 'developer' }), 400, { error: 'issue_iid is invalid' });
  });
});

describe('DELETE /projects/:id/issues/:issue_iid', () => {
  it('needs the project owner or an admin', async () => {
    const doomed = (await app.post(base, { title: 'Doomed' }, { token: 'developer' })).body.iid;
    expectReply(await app.delete(`${base}/${doomed}`, { token: null }), 401, UNAUTHORIZED);
    expectReply(await app.delete(`${base}/${doomed}`, { token: outsider }), 404, PROJECT_NOT_FOUND);
    expectReply(await app.delete(`${base}/${doomed}`, { token: 'maintainer' }), 403, FORBIDDEN);
    expectReply(await app.delete(`${base}/999999`, { token: 'owner' }), 404, { message: '404 Issue Not Found' });
    expectReply(await app.delete(`${base}/${doomed}`, { token: 'owner', headers: { 'If-Unmodified-Since': 'Mon, 01 Jan 2001 00:00:00 GMT' } }), 412, {
      message: '412 Precondition Failed',
    });
    expect((await app.delete(`${base}/${doomed}`, { token: 'owner' })).status).toBe(204);
    expectReply(await app.delete(`${base}/${doomed}`, { token: 'admin' }), 404, { message: '404 Issue Not Found' });
  });
});

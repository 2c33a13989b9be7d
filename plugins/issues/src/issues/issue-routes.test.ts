import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuesPlugin } from '../plugin.js';

let app: TestApp;
let planner: { id: number; token: string };
let outsider: { id: number; token: string };
let base: string;

async function userWithToken(username: string) {
  const user = await app.post('/api/v4/users', { username, name: username, email: `${username}@example.com`, password: 'password1234' }, { token: 'admin' });
  const token = await app.post(`/api/v4/users/${user.body.id}/personal_access_tokens`, { name: 't', scopes: ['api'] }, { token: 'admin' });
  return { id: user.body.id as number, token: token.body.token as string };
}

async function addMilestone(projectPath: string, title: string): Promise<{ id: number; iid: number }> {
  const res = await app.post(`${projectPath}/milestones`, { title }, { token: 'admin' });
  expect(res.status).toBe(201);
  return res.body;
}

async function labelId(title: string): Promise<number> {
  const res = await app.get(`${base}/labels`, { token: 'maintainer', query: { search: title, per_page: 100 } });
  return res.body.find((label: { name: string }) => label.name === title).id;
}

const milestoneEvents = async (iid: number) =>
  (await app.get(`${base}/issues/${iid}/resource_milestone_events`, { token: 'maintainer' })).body.map((e: { action: string; milestone: { id: number } }) => [
    e.action,
    e.milestone.id,
  ]);

const create = (body: Record<string, unknown>, token = 'developer') => app.post(`${base}/issues`, body, { token });

beforeAll(async () => {
  app = await createTestApp({ plugins: [labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, issuesPlugin] });
  base = `/api/v4/projects/${app.project.id}`;
  planner = await userWithToken('planner');
  outsider = await userWithToken('outsider');
  await app.post(`${base}/members`, { user_id: planner.id, access_level: 15 }, { token: 'owner' });
});
afterAll(() => app.close());

describe('creating issues', () => {
  it('creates with per-project iids and GitLab fields', async () => {
    const res = await create({ title: 'First', description: '- [x] done\n- [ ] todo' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      iid: 1,
      project_id: app.project.id,
      title: 'First',
      state: 'opened',
      closed_at: null,
      closed_by: null,
      labels: [],
      milestone: null,
      assignees: [],
      assignee: null,
      author: { id: app.users.developer.id, username: 'developer' },
      type: 'ISSUE',
      issue_type: 'issue',
      user_notes_count: 0,
      confidential: false,
      web_url: `http://localhost/test-group/test-project/-/issues/1`,
      task_completion_status: { count: 2, completed_count: 1 },
      has_tasks: true,
      task_status: '1 of 2 checklist items completed',
      references: { short: '#1', relative: '#1', full: 'test-group/test-project#1' },
      _links: { self: `http://localhost/api/v4/projects/${app.project.id}/issues/1` },
      severity: 'UNKNOWN',
    });
    const second = await create({ title: 'Second' });
    expect(second.body.iid).toBe(2);
  });

  it('gives concurrent creates distinct iids', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => create({ title: `Race ${i}` })));
    const iids = results.map((r) => r.body.iid);
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(new Set(iids).size).toBe(8);
  });

  it('lets a guest create, ignoring metadata only Planner and above may set', async () => {
    const milestone = await addMilestone(base, 'v1');
    const res = await create({ title: 'By guest', labels: 'bug', milestone_id: milestone.id, assignee_ids: [app.users.guest.id] }, 'guest');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ labels: [], milestone: null, assignees: [] });
  });

  it('sets labels (creating unknown ones), milestone and assignees for Planner and above', async () => {
    const milestone = await addMilestone(base, 'v2');
    const res = await create(
      { title: 'Planned', labels: 'bug,feature', milestone_id: milestone.id, assignee_ids: [app.users.developer.id, outsider.id], due_date: '2026-12-01' },
      planner.token,
    );
    expect(res.status).toBe(201);
    expect(res.body.labels).toEqual(['bug', 'feature']);
    expect(res.body.milestone).toMatchObject({ id: milestone.id, title: 'v2' });
    // The outsider cannot read the private project, so GitLab drops them.
    expect(res.body.assignees.map((a: { id: number }) => a.id)).toEqual([app.users.developer.id]);
    expect(res.body.assignee).toMatchObject({ id: app.users.developer.id });
    expect(res.body.due_date).toBe('2026-12-01');
    expect(await milestoneEvents(res.body.iid)).toEqual([['add', milestone.id]]);
    const milestoneIssues = await app.get(`${base}/milestones/${milestone.id}/issues`, { token: 'guest' });
    expect(milestoneIssues.body.map((i: { title: string }) => i.title)).toEqual(['Planned']);
  });

  it('ignores a milestone of another project', async () => {
    const other = await app.post('/api/v4/projects', { name: 'Other', namespace_id: app.group.id }, { token: 'owner' });
    const foreign = await addMilestone(`/api/v4/projects/${other.body.id}`, 'elsewhere');
    const res = await create({ title: 'Foreign milestone', milestone_id: foreign.id }, 'maintainer');
    expect(res.status).toBe(201);
    expect(res.body.milestone).toBeNull();
  });

  it('takes an iid from admins and project owners only', async () => {
    const chosen = await create({ title: 'Chosen iid', iid: 500 }, 'owner');
    expect(chosen).toMatchObject({ status: 201, body: { iid: 500 } });
    expect((await create({ title: 'After the chosen one' }, 'developer')).body.iid).toBe(501);
    expect((await create({ title: 'Ignored iid', iid: 900 }, 'developer')).body.iid).toBe(502);
    expect(await create({ title: 'Taken iid', iid: 500 }, 'admin')).toMatchObject({ status: 409, body: { message: 'Duplicated issue' } });
  });

  it('answers GitLab validation errors', async () => {
    expect(await create({})).toMatchObject({ status: 400, body: { error: 'title is missing' } });
    expect(await create({ title: '  ' })).toMatchObject({ status: 400, body: { message: { title: ["can't be blank"] } } });
    expect(await create({ title: 'x'.repeat(256) })).toMatchObject({ status: 400, body: { message: { title: ['is too long (maximum is 255 characters)'] } } });
    expect(await create({ title: 'bad date', due_date: '2026-02-30' }, 'maintainer')).toMatchObject({
      status: 400,
      body: { message: { due_date: ['is invalid'] } },
    });
    expect(await create({ title: 'x', confidential: 'maybe' })).toMatchObject({ status: 400, body: { error: 'confidential is invalid' } });
  });

  it('refuses anonymous callers and hides the private project from outsiders', async () => {
    expect(await app.post(`${base}/issues`, { title: 'x' }, { token: null })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await create({ title: 'x' }, outsider.token)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
  });
});

describe('reading issues', () => {
  it('shows one issue, and 404s for unknown iids', async () => {
    const res = await app.get(`${base}/issues/1`, { token: 'guest' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ iid: 1, title: 'First', subscribed: false });
    expect(await app.get(`${base}/issues/9999`, { token: 'guest' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect(await app.get(`${base}/issues/abc`, { token: 'guest' })).toMatchObject({ status: 400, body: { error: 'issue_iid is invalid' } });
    expect(await app.get(`${base}/issues/1`, { token: null })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
  });

  it('shows confidential issues only to their author, assignees and Planner or above', async () => {
    const secret = await create({ title: 'Secret', confidential: true }, 'guest');
    expect(secret.status).toBe(201);
    const path = `${base}/issues/${secret.body.iid}`;
    expect((await app.get(path, { token: 'guest' })).status).toBe(200);
    expect((await app.get(path, { token: planner.token })).status).toBe(200);
    expect((await app.get(path, { token: 'admin' })).status).toBe(200);
    const other = await userWithToken('otherguest');
    await app.post(`${base}/members`, { user_id: other.id, access_level: 10 }, { token: 'owner' });
    expect(await app.get(path, { token: other.token })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    const list = await app.get(`${base}/issues`, { token: other.token, query: { per_page: 100 } });
    expect(list.body.map((i: { title: string }) => i.title)).not.toContain('Secret');
    const planned = await app.get(`${base}/issues`, { token: planner.token, query: { per_page: 100 } });
    expect(planned.body.map((i: { title: string }) => i.title)).toContain('Secret');
  });
});

describe('listing and filtering', () => {
  const titles = (res: { body: { title: string }[] }) => res.body.map((i) => i.title);
  const list = (query: Record<string, string | number | boolean | (string | number)[]>, token = 'maintainer') =>
    app.get(`${base}/issues`, { token, query: { per_page: 100, ...query } });

  it('lists newest first with pagination headers', async () => {
    const res = await app.get(`${base}/issues`, { token: 'maintainer', query: { per_page: 2 } });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    expect(Number(res.headers.get('x-total'))).toBeGreaterThan(10);
    expect(res.headers.get('x-next-page')).toBe('2');
    expect(res.body[0].iid).toBeGreaterThan(res.body[1].iid);
  });

  it('filters by labels, milestone, assignee, author, search, iids and state', async () => {
    expect(titles(await list({ labels: 'bug' }))).toEqual(['Planned']);
    expect(titles(await list({ labels: 'bug,feature' }))).toEqual(['Planned']);
    expect(titles(await list({ labels: 'bug,nothing' }))).toEqual([]);
    expect(titles(await list({ labels: 'Any' }))).toEqual(['Planned']);
    expect(titles(await list({ labels: 'None' }))).not.toContain('Planned');
    expect(titles(await list({ milestone: 'v2' }))).toEqual(['Planned']);
    expect(titles(await list({ milestone_id: 'Any' }))).toEqual(['Planned']);
    expect(titles(await list({ milestone: 'None' }))).not.toContain('Planned');
    expect(titles(await list({ assignee_id: app.users.developer.id }))).toEqual(['Planned']);
    expect(titles(await list({ assignee_id: 'Any' }))).toEqual(['Planned']);
    expect(titles(await list({ assignee_username: ['developer'] }))).toEqual(['Planned']);
    expect(titles(await list({ author_username: 'guest' }))).toEqual(['Secret', 'By guest']);
    expect(titles(await list({ author_id: app.users.guest.id, confidential: true }))).toEqual(['Secret']);
    expect(titles(await list({ search: 'PLANN' }))).toEqual(['Planned']);
    expect(titles(await list({ search: 'todo', in: 'title' }))).toEqual([]);
    expect(titles(await list({ search: 'todo', in: 'description' }))).toEqual(['First']);
    expect(titles(await list({ iids: [1, 2], sort: 'asc' }))).toEqual(['First', 'Second']);
    expect(titles(await list({ 'not[labels]': 'bug', iids: [1, 2] }))).toEqual(['Second', 'First']);
    expect(titles(await list({ state: 'closed' }))).toEqual([]);
    expect(titles(await list({ order_by: 'title', sort: 'asc', iids: [1, 2] }))).toEqual(['First', 'Second']);
    expect(titles(await list({ scope: 'created_by_me' }, 'guest'))).toEqual(['Secret', 'By guest']);
    expect(titles(await list({ scope: 'assigned_to_me' }, 'developer'))).toEqual(['Planned']);
  });

  it('gives label details on request', async () => {
    const res = await list({ labels: 'bug', with_labels_details: true });
    expect(res.body[0].labels.map((l: { name: string }) => l.name)).toEqual(['bug', 'feature']);
    expect(res.body[0].labels[0]).toMatchObject({ id: await labelId('bug'), color: expect.stringMatching(/^#/), archived: false });
    const counted = await app.get(`${base}/labels`, { token: 'guest', query: { with_counts: true, search: 'bug' } });
    expect(counted.body.find((l: { name: string }) => l.name === 'bug')).toMatchObject({ open_issues_count: 1, closed_issues_count: 0 });
  });

  it('rejects bad filter values', async () => {
    expect(await list({ state: 'merged' })).toMatchObject({ status: 400, body: { error: 'state does not have a valid value' } });
    expect(await list({ order_by: 'nope' })).toMatchObject({ status: 400, body: { error: 'order_by does not have a valid value' } });
    expect(await list({ assignee_id: 'someone' })).toMatchObject({ status: 400, body: { error: 'assignee_id does not have a valid value' } });
    expect(await list({ author_id: 1, author_username: 'x' })).toMatchObject({
      status: 400,
      body: { error: 'author_id, author_username are mutually exclusive' },
    });
  });

  it('lists the group issues and the caller’s own issues', async () => {
    const group = await app.get(`/api/v4/groups/${app.group.id}/issues`, { token: 'guest', query: { search: 'Planned' } });
    expect(group.status).toBe(200);
    expect(titles(group)).toEqual(['Planned']);
    const mine = await app.get('/api/v4/issues', { token: 'guest', query: { per_page: 100 } });
    expect(titles(mine)).toEqual(['Secret', 'By guest']);
    expect(await app.get('/api/v4/issues', { token: null })).toMatchObject({ status: 401 });
    const everything = await app.get('/api/v4/issues', { token: 'developer', query: { scope: 'all', search: 'Planned' } });
    expect(titles(everything)).toEqual(['Planned']);
    expect(await app.get('/api/v4/groups/999999/issues', { token: 'guest' })).toMatchObject({ status: 404, body: { message: '404 Group Not Found' } });
  });
});

describe('updating issues', () => {
  it('needs at least one parameter', async () => {
    const res = await app.put(`${base}/issues/1`, {}, { token: 'maintainer' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^assignee_id, assignee_ids, .* are missing, at least one parameter must be provided$/);
  });

  it('lets the author and Planner or above update, not other guests', async () => {
    const issue = await create({ title: 'Guest owned' }, 'guest');
    const path = `${base}/issues/${issue.body.iid}`;
    const renamed = await app.put(path, { title: 'Guest owned, renamed', confidential: true }, { token: 'guest' });
    // The author may edit the title, but not the confidentiality, of an issue that exists.
    expect(renamed).toMatchObject({ status: 200, body: { title: 'Guest owned, renamed', confidential: false } });
    expect((await app.put(path, { title: 'By planner' }, { token: planner.token })).status).toBe(200);
    const other = await userWithToken('guesttwo');
    await app.post(`${base}/members`, { user_id: other.id, access_level: 10 }, { token: 'owner' });
    expect(await app.put(path, { title: 'No' }, { token: other.token })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await app.put(`${base}/issues/9999`, { title: 'No' }, { token: 'maintainer' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect(await app.put(path, { title: '' }, { token: 'maintainer' })).toMatchObject({ status: 400, body: { message: { title: ["can't be blank"] } } });
  });

  it('closes and reopens with closed_at and closed_by, and records system notes', async () => {
    const issue = await create({ title: 'Lifecycle' }, 'developer');
    const path = `${base}/issues/${issue.body.iid}`;
    const closed = await app.put(path, { state_event: 'close' }, { token: 'developer' });
    expect(closed.body).toMatchObject({ state: 'closed', closed_by: { id: app.users.developer.id } });
    expect(closed.body.closed_at).toEqual(expect.any(String));
    const reopened = await app.put(path, { state_event: 'reopen', title: 'Lifecycle two' }, { token: 'developer' });
    expect(reopened.body).toMatchObject({ state: 'opened', closed_at: null, closed_by: null, title: 'Lifecycle two' });
    const milestone = await addMilestone(base, 'v3');
    await app.put(
      path,
      { description: 'new', labels: 'bug', assignee_ids: [app.users.reporter.id], milestone_id: milestone.id, confidential: true, due_date: '2026-11-24' },
      { token: 'maintainer' },
    );
    await app.put(path, { add_labels: 'feature', remove_labels: 'bug', assignee_ids: [], milestone_id: 0 }, { token: 'maintainer' });
    const notes = await app.get(`${path}/notes`, { token: 'developer', query: { sort: 'asc', per_page: 100 } });
    expect(notes.status).toBe(200);
    const bugId = await labelId('bug');
    const featureId = await labelId('feature');
    expect(notes.body.map((n: { body: string }) => n.body)).toEqual([
      'closed',
      'changed title from **Lifecycle** to **Lifecycle{+ two+}**',
      'reopened',
      'changed the description',
      'made the issue confidential',
      'changed due date to November 24, 2026',
      `changed milestone to %${milestone.iid}`,
      'assigned to @reporter',
      `added ~${bugId} label`,
      'removed milestone',
      'unassigned @reporter',
      `added ~${featureId} and removed ~${bugId} labels`,
    ]);
    expect(notes.body[0]).toMatchObject({
      system: true,
      noteable_type: 'Issue',
      noteable_iid: issue.body.iid,
      author: { username: 'developer' },
      internal: false,
    });
    const comments = await app.get(`${path}/notes`, { token: 'developer', query: { activity_filter: 'only_comments' } });
    expect(comments.body).toEqual([]);
    expect(await milestoneEvents(issue.body.iid)).toEqual([
      ['add', milestone.id],
      ['remove', milestone.id],
    ]);
  });
});

describe('issue notes', () => {
  it('need a signed-in reader of the issue', async () => {
    expect(await app.get(`${base}/issues/1/notes`, { token: null })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await app.get(`${base}/issues/9999/notes`, { token: 'guest' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect(await app.get(`${base}/issues/1/notes`, { token: outsider.token })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    const secret = await create({ title: 'Secret notes', confidential: true }, 'maintainer');
    expect(await app.get(`${base}/issues/${secret.body.iid}/notes`, { token: 'guest' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect(await app.get(`${base}/issues/1/notes`, { token: 'guest', query: { activity_filter: 'some' } })).toMatchObject({
      status: 400,
      body: { error: 'activity_filter does not have a valid value' },
    });
  });

  it('answers only_activity with system notes, newest first by default', async () => {
    const issue = await create({ title: 'Noted' }, 'developer');
    const path = `${base}/issues/${issue.body.iid}`;
    await app.put(path, { title: 'Noted again' }, { token: 'developer' });
    await app.put(path, { state_event: 'close' }, { token: 'developer' });
    const res = await app.get(`${path}/notes`, { token: 'guest', query: { activity_filter: 'only_activity' } });
    expect(res.body.map((n: { body: string }) => n.body)).toEqual(['closed', 'changed title from **Noted** to **Noted{+ again+}**']);
    expect(res.headers.get('x-total')).toBe('2');
    const shown = await app.get(path, { token: 'guest' });
    expect(shown.body.user_notes_count).toBe(0);
  });
});

describe('deleting issues', () => {
  it('is open to a Planner, as GitLab 17.7 and later allow', async () => {
    const issue = await create({ title: 'Planned away' });
    const path = `${base}/issues/${issue.body.iid}`;
    for (const token of ['guest', 'reporter', 'developer']) {
      expect(await app.delete(path, { token })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    }
    expect((await app.delete(path, { token: planner.token })).status).toBe(204);
    expect((await app.get(path, { token: 'owner' })).status).toBe(404);
  });

  it('needs the project owner or an admin', async () => {
    const issue = await create({ title: 'Doomed' });
    const path = `${base}/issues/${issue.body.iid}`;
    expect(await app.delete(path, { token: 'maintainer' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await app.delete(path, { token: 'owner', headers: { 'If-Unmodified-Since': 'Mon, 01 Jan 2001 00:00:00 GMT' } })).toMatchObject({
      status: 412,
      body: { message: '412 Precondition Failed' },
    });
    expect((await app.delete(path, { token: 'owner' })).status).toBe(204);
    expect(await app.delete(path, { token: 'owner' })).toMatchObject({ status: 404, body: { message: '404 Issue Not Found' } });
    expect((await app.get(path, { token: 'owner' })).status).toBe(404);
  });

  it('removes a deleted project’s issues', async () => {
    const project = await app.post('/api/v4/projects', { name: 'Short lived' }, { token: 'developer' });
    const created = await app.post(`/api/v4/projects/${project.body.id}/issues`, { title: 'Gone soon' }, { token: 'developer' });
    expect(created.status).toBe(201);
    expect((await app.delete(`/api/v4/projects/${project.body.id}`, { token: 'developer' })).status).toBe(202);
    const all = await app.get('/api/v4/issues', { token: 'admin', query: { scope: 'all', search: 'Gone soon' } });
    expect(all.body).toEqual([]);
  });
});

describe('label counts', () => {
  it('count only the issues the caller may list', async () => {
    const label = await app.post(`${base}/labels`, { name: 'counted', color: '#123456' }, { token: 'maintainer' });
    expect(label.status).toBe(201);
    expect((await create({ title: 'Open counted', labels: 'counted' })).status).toBe(201);
    expect((await create({ title: 'Secret counted', labels: 'counted', confidential: true })).status).toBe(201);
    const counts = async (token: string) =>
      (await app.get(`${base}/labels`, { token, query: { with_counts: true, search: 'counted' } })).body.find((l: { name: string }) => l.name === 'counted');
    expect(await counts('guest')).toMatchObject({ open_issues_count: 1, closed_issues_count: 0 });
    expect(await counts(planner.token)).toMatchObject({ open_issues_count: 2, closed_issues_count: 0 });
    expect(await counts('developer')).toMatchObject({ open_issues_count: 2 });
  });

  it('count only the issues the caller may list on group labels too', async () => {
    const label = await app.post(`/api/v4/groups/${app.group.id}/labels`, { name: 'group-counted', color: '#654321' }, { token: 'owner' });
    expect(label.status).toBe(201);
    expect((await create({ title: 'Open group-counted', labels: 'group-counted' })).status).toBe(201);
    expect((await create({ title: 'Secret group-counted', labels: 'group-counted', confidential: true })).status).toBe(201);
    const counts = async (token: string) =>
      (await app.get(`/api/v4/groups/${app.group.id}/labels`, { token, query: { with_counts: true, search: 'group-counted' } })).body[0];
    expect(await counts('guest')).toMatchObject({ name: 'group-counted', open_issues_count: 1 });
    expect(await counts('owner')).toMatchObject({ name: 'group-counted', open_issues_count: 2 });
  });
});

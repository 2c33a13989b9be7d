import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { milestonesPlugin } from '../plugin.js';

/** Every documented answer of the project and group milestone endpoints, with its exact body. */
describe('milestone endpoints: documented statuses and bodies', () => {
  let app: TestApp;
  let planner: string;
  const mounts: { name: string; base: string; hidden: { message: string } }[] = [];

  const answer = (res: { status: number; body: unknown }) => ({ status: res.status, body: res.body });

  beforeAll(async () => {
    app = await createTestApp({ plugins: [milestonesPlugin] });
    mounts.push(
      { name: 'project', base: `/api/v4/projects/${app.project.id}/milestones`, hidden: { message: '404 Project Not Found' } },
      { name: 'group', base: `/api/v4/groups/${app.group.id}/milestones`, hidden: { message: '404 Group Not Found' } },
    );
    const user = await app.post(
      '/api/v4/users',
      { username: 'planner', name: 'planner', email: 'planner@example.com', password: 'password1234' },
      { token: 'admin' },
    );
    planner = (await app.post(`/api/v4/users/${user.body.id}/personal_access_tokens`, { name: 't', scopes: ['api'] }, { token: 'admin' })).body.token;
    expect((await app.post(`/api/v4/groups/${app.group.id}/members`, { user_id: user.body.id, access_level: 15 }, { token: 'owner' })).status).toBe(201);
  });
  afterAll(() => app?.close());

  it.each([0, 1])('answers 401, 404 for the unseen and 403 below Planner (%s)', async (index) => {
    const { base, hidden } = mounts[index]!;
    const milestone = (await app.post(base, { title: `roles ${index}` }, { token: planner })).body;
    const item = `${base}/${milestone.id}`;
    for (const res of [await app.get(base, { token: null }), await app.get(item, { token: null }), await app.post(base, { title: 'x' }, { token: null })]) {
      expect(answer(res)).toEqual({ status: 401, body: { message: '401 Unauthorized' } });
    }
    for (const res of [
      await app.get(base, { token: 'nonMember' }),
      await app.get(item, { token: 'nonMember' }),
      await app.delete(item, { token: 'nonMember' }),
    ]) {
      expect(answer(res)).toEqual({ status: 404, body: hidden });
    }
    for (const res of [
      await app.post(base, { title: 'by guest' }, { token: 'guest' }),
      await app.put(item, { title: 'by guest' }, { token: 'guest' }),
      await app.delete(item, { token: 'guest' }),
    ]) {
      expect(answer(res)).toEqual({ status: 403, body: { message: '403 Forbidden' } });
    }
    expect((await app.put(item, { state_event: 'close' }, { token: planner })).body.state).toBe('closed');
    expect((await app.delete(item, { token: planner })).status).toBe(204);
  });

  it.each([0, 1])('answers 404 Not found for unknown milestones and 400 for a non-integer id (%s)', async (index) => {
    const { base } = mounts[index]!;
    const notFound = { status: 404, body: { message: '404 Not found' } };
    for (const res of [
      await app.get(`${base}/999999`, { token: 'owner' }),
      await app.put(`${base}/999999`, { title: 'x' }, { token: 'owner' }),
      await app.delete(`${base}/999999`, { token: 'owner' }),
      await app.get(`${base}/999999/issues`, { token: 'owner' }),
      await app.get(`${base}/999999/merge_requests`, { token: 'owner' }),
    ]) {
      expect(answer(res)).toEqual(notFound);
    }
    for (const res of [await app.get(`${base}/abc`, { token: 'owner' }), await app.delete(`${base}/abc`, { token: 'owner' })]) {
      expect(answer(res)).toEqual({ status: 400, body: { error: 'milestone_id is invalid' } });
    }
  });

  it.each([0, 1])('answers parameter and model errors with GitLab texts (%s)', async (index) => {
    const { base } = mounts[index]!;
    expect(answer(await app.post(base, {}, { token: 'owner' }))).toEqual({ status: 400, body: { error: 'title is missing' } });
    expect(answer(await app.post(base, { title: ' ' }, { token: 'owner' }))).toEqual({
      status: 400,
      body: { message: `Failed to create milestone {:title=>["can't be blank"]}` },
    });
    const milestone = (await app.post(base, { title: `model ${index}` }, { token: 'owner' })).body;
    expect(answer(await app.put(`${base}/${milestone.id}`, {}, { token: 'owner' }))).toEqual({
      status: 400,
      body: { error: 'title, description, start_date, due_date, state_event are missing, at least one parameter must be provided' },
    });
    expect(answer(await app.put(`${base}/${milestone.id}`, { start_date: '2030-02-01', due_date: '2030-01-01' }, { token: 'owner' }))).toEqual({
      status: 400,
      body: { message: `Failed to update milestone {:due_date=>["must be greater than start date"]}` },
    });
    expect(answer(await app.get(base, { token: 'owner', query: { include_ancestors: true, include_parent_milestones: true } }))).toEqual({
      status: 400,
      body: { error: 'include_ancestors, include_parent_milestones are mutually exclusive' },
    });
  });
});

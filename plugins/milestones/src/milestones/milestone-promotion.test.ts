import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { milestoneLifecycle } from '../contracts.js';
import { MilestoneEntity } from '../entities/milestone.js';
import { milestonesPlugin } from '../plugin.js';

describe('promoting a project milestone to a group milestone', () => {
  let app: TestApp;
  let projectA: string;
  let projectB: string;
  let group: string;
  let projectMember: string;
  const seen: string[] = [];
  let merged: { from: number[]; to: number; groupId: number; userId: number | null } | undefined;

  async function userWithToken(username: string) {
    const user = await app.post('/api/v4/users', { username, name: username, email: `${username}@example.com`, password: 'password1234' }, { token: 'admin' });
    const token = await app.post(`/api/v4/users/${user.body.id}/personal_access_tokens`, { name: 't', scopes: ['api'] }, { token: 'admin' });
    return { id: user.body.id as number, token: token.body.token as string };
  }

  beforeAll(async () => {
    app = await createTestApp({ plugins: [milestonesPlugin] });
    projectA = `/api/v4/projects/${app.project.id}/milestones`;
    group = `/api/v4/groups/${app.group.id}/milestones`;
    const other = await app.post('/api/v4/projects', { name: 'Other', namespace_id: app.group.id }, { token: 'owner' });
    projectB = `/api/v4/projects/${other.body.id}/milestones`;
    const member = await userWithToken('project-reporter');
    await app.post(`/api/v4/projects/${app.project.id}/members`, { user_id: member.id, access_level: 20 }, { token: 'owner' });
    projectMember = member.token;
    app.kernel.events.on(milestoneLifecycle.merged, (event) => {
      merged = event;
      seen.push('merged');
    });
    app.kernel.events.on(milestoneLifecycle.created, (event) => void seen.push(`created ${event.milestoneId}`));
    app.kernel.events.on(milestoneLifecycle.deleted, (event) => void seen.push(`deleted ${event.milestoneId}`));
  });
  afterAll(() => app?.close());

  it('replaces the milestones of that title in the group projects by one group milestone and answers 200', async () => {
    await app.post(group, { title: 'earlier' }, { token: 'owner' });
    const inA = (await app.post(projectA, { title: 'v1', description: 'from a', start_date: '2030-01-01', due_date: '2030-02-01' }, { token: 'owner' })).body;
    await app.put(`${projectA}/${inA.id}`, { state_event: 'close' }, { token: 'owner' });
    const inB = (await app.post(projectB, { title: 'v1' }, { token: 'owner' })).body;
    const elsewhere = await app.post('/api/v4/projects', { name: 'Elsewhere' }, { token: 'owner' });
    const outside = (await app.post(`/api/v4/projects/${elsewhere.body.id}/milestones`, { title: 'v1' }, { token: 'owner' })).body;
    seen.length = 0;

    const res = await app.post(`${projectA}/${inA.id}/promote`, undefined, { token: 'reporter' });
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: 200 });

    const list = (await app.get(group, { token: 'guest', query: { title: 'v1' } })).body;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      iid: 2,
      group_id: app.group.id,
      title: 'v1',
      description: 'from a',
      state: 'active',
      start_date: '2030-01-01',
      due_date: '2030-02-01',
      web_url: 'http://localhost/groups/test-group/-/milestones/2',
    });
    expect(merged).toEqual({ from: [inA.id, inB.id], to: list[0].id, groupId: app.group.id, userId: app.users.reporter.id });
    expect(seen).toEqual([`created ${list[0].id}`, 'merged', `deleted ${inA.id}`, `deleted ${inB.id}`]);
    expect((await app.get(`${projectB}/${inB.id}`, { token: 'owner' })).status).toBe(404);
    expect((await app.get(`/api/v4/projects/${elsewhere.body.id}/milestones/${outside.id}`, { token: 'owner' })).body.title).toBe('v1');
    // Projects see it as their group's.
    expect((await app.get(projectA, { token: 'guest', query: { include_ancestors: true, title: 'v1' } })).body.map((m: { id: number }) => m.id)).toEqual([
      list[0].id,
    ]);
  });

  it('refuses a title the group already has, changing nothing', async () => {
    // The API keeps a group and its projects from sharing a title; a project moved into the group may bring one.
    const same = (await app.post(projectB, { title: 'clash' }, { token: 'owner' })).body;
    await app.kernel.database.insert(MilestoneEntity, {
      iid: 99,
      groupId: app.group.id,
      title: 'clash',
      state: 'active',
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    const res = await app.post(`${projectB}/${same.id}/promote`, undefined, { token: 'owner' });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: { message: 'Promotion failed - Title already being used for another group or project milestone.' },
    });
    expect((await app.get(`${projectB}/${same.id}`, { token: 'owner' })).status).toBe(200);
  });

  it('answers GitLab codes for roles, a personal project and unknown milestones', async () => {
    const milestone = (await app.post(projectA, { title: 'roles' }, { token: 'owner' })).body;
    const forbidden = { message: '403 Forbidden' };
    const guest = await app.post(`${projectA}/${milestone.id}/promote`, undefined, { token: 'guest' });
    expect({ status: guest.status, body: guest.body }).toEqual({ status: 403, body: forbidden });
    // Reporter in the project but no role in the group.
    const notInGroup = await app.post(`${projectA}/${milestone.id}/promote`, undefined, { token: projectMember });
    expect({ status: notInGroup.status, body: notInGroup.body }).toEqual({ status: 403, body: forbidden });
    const hidden = await app.post(`${projectA}/${milestone.id}/promote`, undefined, { token: 'nonMember' });
    expect({ status: hidden.status, body: hidden.body }).toEqual({ status: 404, body: { message: '404 Project Not Found' } });
    const anonymous = await app.post(`${projectA}/${milestone.id}/promote`, undefined, { token: null });
    expect({ status: anonymous.status, body: anonymous.body }).toEqual({ status: 401, body: { message: '401 Unauthorized' } });

    for (const id of ['0', 'abc', '999999']) {
      const res = await app.post(`${projectA}/${id}/promote`, undefined, { token: 'owner' });
      expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: { message: '404 Not found' } });
    }
    const groupMilestone = (await app.post(group, { title: 'of-the-group' }, { token: 'owner' })).body;
    const notProjects = await app.post(`${projectA}/${groupMilestone.id}/promote`, undefined, { token: 'owner' });
    expect({ status: notProjects.status, body: notProjects.body }).toEqual({ status: 404, body: { message: '404 Not found' } });

    const personal = await app.post('/api/v4/projects', { name: 'Mine' }, { token: 'developer' });
    const own = (await app.post(`/api/v4/projects/${personal.body.id}/milestones`, { title: 'mine' }, { token: 'developer' })).body;
    const res = await app.post(`/api/v4/projects/${personal.body.id}/milestones/${own.id}/promote`, undefined, { token: 'developer' });
    expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: forbidden });
    expect((await app.post(`${group}/${groupMilestone.id}/promote`, undefined, { token: 'owner' })).status).toBe(404);
  });
});

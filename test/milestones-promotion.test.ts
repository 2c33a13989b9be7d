import { AccessLevel } from '@gitbeaker/rest';
import { corePlugin } from '@forgekit/plugin-core';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';
import { python } from './support/python-gitlab.js';

describe('milestone promotion through python-gitlab', () => {
  let server: ListeningServer;
  let api: Api;
  let reporter: UserWithToken;
  let guest: UserWithToken;
  let groupId: number;
  let projectA: number;
  let projectB: number;

  beforeAll(async () => {
    server = await startListeningServer([corePlugin, milestonesPlugin]);
    api = clientFor(server, server.rootToken);
    groupId = (await api.Groups.create('Promo Group', 'promo-group')).id;
    projectA = (await api.Projects.create({ name: 'A', namespaceId: groupId })).id;
    projectB = (await api.Projects.create({ name: 'B', namespaceId: groupId })).id;
    reporter = await createUserWithToken(api, server, 'rosa');
    guest = await createUserWithToken(api, server, 'gil');
    await api.GroupMembers.add(groupId, AccessLevel.REPORTER, { userId: reporter.id });
    await api.GroupMembers.add(groupId, AccessLevel.GUEST, { userId: guest.id });
  });
  afterAll(() => server?.close());

  it('replaces the projects milestones of that title by a group milestone', async () => {
    const inA = await api.ProjectMilestones.create(projectA, 'v2', { dueDate: '2031-01-01' });
    await api.ProjectMilestones.create(projectB, 'v2');
    const answer = await python(
      server,
      reporter.token,
      `print(json.dumps(gl.projects.get(${projectA}, lazy=True).milestones.get(${inA.id}, lazy=True).promote()))`,
    );
    expect(answer).toBe(200);
    const groupMilestones = await api.GroupMilestones.all(groupId);
    expect(groupMilestones.map((m) => [m.title, m.due_date, m.state])).toEqual([['v2', '2031-01-01', 'active']]);
    expect(await api.ProjectMilestones.all(projectA)).toEqual([]);
    expect(await api.ProjectMilestones.all(projectB)).toEqual([]);
  });

  it('refuses a guest with 403', async () => {
    const milestone = await api.ProjectMilestones.create(projectA, 'v3');
    const outcome = await python(
      server,
      guest.token,
      `try:\n  gl.projects.get(${projectA}, lazy=True).milestones.get(${milestone.id}, lazy=True).promote()\n  print('null')\nexcept gitlab.exceptions.GitlabPromoteError as e:\n  print(json.dumps([e.response_code, e.error_message]))`,
    );
    expect(outcome).toEqual([403, '403 Forbidden']);
  });
});

import { AccessLevel } from '@gitbeaker/rest';
import { corePlugin } from '@forgekit/plugin-core';
import { issuesPlugin } from '@forgekit/plugin-issues';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';
import { python } from './support/python-gitlab.js';

const dayFrom = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('issue filters, orders and the Ghost User through python-gitlab and @gitbeaker/rest', () => {
  let server: ListeningServer;
  let api: Api;
  let dev: UserWithToken;
  let projectId: number;

  beforeAll(async () => {
    server = await startListeningServer([corePlugin, labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, issuesPlugin]);
    api = clientFor(server, server.rootToken);
    const group = await api.Groups.create('Filter Group', 'filter-group');
    projectId = (await api.Projects.create({ name: 'Filter Project', namespaceId: group.id })).id;
    dev = await createUserWithToken(api, server, 'filterdev');
    await api.GroupMembers.add(group.id, AccessLevel.DEVELOPER, { userId: dev.id });
    const soon = await api.ProjectMilestones.create(projectId, 'Soon', { dueDate: dayFrom(5) });
    await api.ProjectLabels.create(projectId, 'urgent', '#FF0000', { priority: 1 });
    await dev.api.Issues.create(projectId, 'Late', { dueDate: dayFrom(-3) });
    await dev.api.Issues.create(projectId, 'Planned', { milestoneId: soon.id, labels: 'urgent' });
    await dev.api.Issues.create(projectId, 'Loose', {});
  });
  afterAll(() => server?.close());

  it('filters by due_date and orders by priority with python-gitlab', async () => {
    const overdue = await python(
      server,
      dev.token,
      `print(json.dumps([i.title for i in gl.projects.get(${projectId}).issues.list(due_date='overdue', get_all=True)]))`,
    );
    expect(overdue).toEqual(['Late']);
    const byPriority = await python(
      server,
      dev.token,
      `print(json.dumps([i.title for i in gl.projects.get(${projectId}).issues.list(order_by='priority', sort='asc', get_all=True)]))`,
    );
    expect(byPriority).toEqual(['Planned', 'Loose', 'Late']);
  });

  it('hands a deleted author’s issues to the Ghost User', async () => {
    const leaver = await createUserWithToken(api, server, 'filterleaver');
    await api.ProjectMembers.add(projectId, AccessLevel.GUEST, { userId: leaver.id });
    const issue = await leaver.api.Issues.create(projectId, 'Left behind');
    await api.Users.remove(leaver.id);
    const shown = await api.Issues.show(issue.iid, { projectId });
    expect(shown.author).toMatchObject({ username: 'ghost', name: 'Ghost User', state: 'active' });
  });
});

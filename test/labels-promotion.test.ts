import { AccessLevel } from '@gitbeaker/rest';
import { corePlugin } from '@forgekit/plugin-core';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';
import { python } from './support/python-gitlab.js';

describe('label promotion through python-gitlab and @gitbeaker/rest', () => {
  let server: ListeningServer;
  let api: Api;
  let reporter: UserWithToken;
  let groupId: number;
  let projectA: number;
  let projectB: number;

  beforeAll(async () => {
    server = await startListeningServer([corePlugin, labelsPlugin]);
    api = clientFor(server, server.rootToken);
    groupId = (await api.Groups.create('Label Group', 'label-group')).id;
    projectA = (await api.Projects.create({ name: 'A', namespaceId: groupId })).id;
    projectB = (await api.Projects.create({ name: 'B', namespaceId: groupId })).id;
    reporter = await createUserWithToken(api, server, 'rex');
    await api.GroupMembers.add(groupId, AccessLevel.REPORTER, { userId: reporter.id });
  });
  afterAll(() => server?.close());

  it('merges the same-titled project labels into one group label', async () => {
    await api.ProjectLabels.create(projectA, '<b>bug</b>', '#FF0000');
    await api.ProjectLabels.create(projectB, 'bug', '#00FF00');
    const promoted = await python(server, reporter.token, `print(json.dumps(gl.projects.get(${projectA}, lazy=True).labels.get('bug').promote()))`);
    expect(promoted).toMatchObject({ name: 'bug', color: '#FF0000', subscribed: false });
    expect(promoted).not.toHaveProperty('is_project_label');
    const groupLabels = await api.GroupLabels.all(groupId);
    expect(groupLabels.map((label) => [label.id, label.name])).toEqual([[promoted.id, 'bug']]);
    const inB = await api.ProjectLabels.all(projectB);
    expect(inB.map((label) => [label.id, label.is_project_label])).toEqual([[promoted.id, false]]);
  });
});

import { AccessLevel } from '@gitbeaker/rest';
import { corePlugin } from '@forgekit/plugin-core';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, failureOf, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';
import { runPython } from './support/python-gitlab.js';

describe('labels through @gitbeaker/rest and python-gitlab', () => {
  let server: ListeningServer;
  let api: Api;
  let guest: UserWithToken;
  let groupId: number;
  let subgroupId: number;
  let projectId: number;

  beforeAll(async () => {
    server = await startListeningServer([corePlugin, labelsPlugin]);
    api = clientFor(server, server.rootToken);
    groupId = (await api.Groups.create('Labels Group', 'labels-group')).id;
    subgroupId = (await api.Groups.create('Labels Sub', 'labels-sub', { parentId: groupId })).id;
    projectId = (await api.Projects.create({ name: 'Labels Project', namespaceId: subgroupId })).id;
    guest = await createUserWithToken(api, server, 'gina');
    await api.GroupMembers.add(groupId, AccessLevel.GUEST, { userId: guest.id });
  });
  afterAll(() => server?.close());

  it('manages group labels', async () => {
    const created = await api.GroupLabels.create(groupId, 'bug', 'red', { description: 'Broken *things*' });
    expect(created).toMatchObject({ name: 'bug', color: '#FF0000', text_color: '#FFFFFF', description_html: '<p>Broken <em>things</em></p>' });
    await api.GroupLabels.create(subgroupId, 'sub-only', '#eeeeee');

    expect((await api.GroupLabels.all(subgroupId)).map((label) => label.name)).toEqual(['bug', 'sub-only']);
    expect((await api.GroupLabels.all(groupId, { withCounts: true })).map((label) => label.open_issues_count)).toEqual([0]);
    expect((await api.GroupLabels.show(subgroupId, 'bug')).id).toBe(created.id);

    expect(await failureOf(api.GroupLabels.create(subgroupId, 'bug', '#000000'))).toEqual({ status: 409, description: 'Label already exists' });
    expect(await failureOf(api.GroupLabels.create(groupId, 'bad', 'nope'))).toEqual({
      status: 400,
      description: JSON.stringify({ color: ['must be a valid color code'] }),
    });
    expect(await failureOf(guest.api.GroupLabels.create(groupId, 'guest', '#000000'))).toMatchObject({ status: 403 });

    const edited = await api.GroupLabels.edit(groupId, 'bug', { newName: 'defect', description: 'Renamed' });
    expect(edited).toMatchObject({ name: 'defect', color: '#FF0000', description: 'Renamed' });
    expect(await api.GroupLabels.edit(groupId, 'defect', { color: '#00ff00' })).toMatchObject({ color: '#00ff00', text_color: '#FFFFFF' });

    // gitbeaker's GroupLabels.subscribe posts to an issues path, so the subscription goes over plain HTTP.
    const subscribe = () =>
      fetch(`${server.url}/api/v4/groups/${groupId}/labels/defect/subscribe`, { method: 'POST', headers: { 'PRIVATE-TOKEN': guest.token } });
    const first = await subscribe();
    expect(first.status).toBe(201);
    expect(((await first.json()) as { subscribed: boolean }).subscribed).toBe(true);
    const repeat = await subscribe();
    expect(repeat.status).toBe(304);
    expect(await repeat.text()).toBe('');

    await api.GroupLabels.remove(subgroupId, 'sub-only');
    expect(await failureOf(api.GroupLabels.show(subgroupId, 'sub-only'))).toEqual({ status: 404, description: '404 Label Not Found' });
  });

  it('manages project labels with priorities', async () => {
    const created = await api.ProjectLabels.create(projectId, 'feature', '#428BCA', { priority: 2 });
    expect(created).toMatchObject({ name: 'feature', priority: 2, is_project_label: true, subscribed: false });
    const all = await api.ProjectLabels.all(projectId);
    expect(all.map((label) => [label.name, label.is_project_label])).toEqual([
      ['defect', false],
      ['feature', true],
    ]);
    const page = await api.ProjectLabels.all(projectId, { perPage: 1, page: 2, showExpanded: true });
    expect(page.data.map((label) => label.name)).toEqual(['feature']);
    expect(page.paginationInfo).toMatchObject({ total: 2, current: 2, previous: 1, perPage: 1, totalPages: 2 });
    expect(await api.ProjectLabels.edit(projectId, created.id, { color: '#123456', description: 'new' })).toMatchObject({ description: 'new', priority: 2 });
    await api.ProjectLabels.remove(projectId, created.id);
    expect((await api.ProjectLabels.all(projectId)).map((label) => label.name)).toEqual(['defect']);
  });

  it('works with python-gitlab', async () => {
    const script = `
import sys, gitlab
gl = gitlab.Gitlab(sys.argv[1], private_token=sys.argv[2])
group = gl.groups.get(int(sys.argv[3]), lazy=True)
label = group.labels.create({"name": "py-label", "color": "#123456", "description": "from python"})
label.description = "changed"
label.save()
assert group.labels.get("py-label").description == "changed"
label.subscribe()
assert group.labels.get("py-label").subscribed
label.unsubscribe()
project = gl.projects.get(int(sys.argv[4]), lazy=True)
plabel = project.labels.create({"name": "py-project", "color": "navy", "priority": 1})
assert plabel.color == "#000080" and plabel.priority == 1
plabel.new_name = "py-renamed"
plabel.save()
names = sorted(l.name for l in project.labels.list(get_all=True))
plabel = project.labels.get("py-renamed")
plabel.delete()
label.delete()
print(",".join(names))
`;
    const stdout = await runPython(script, [server.url, server.rootToken, String(groupId), String(projectId)]);
    expect(stdout.trim()).toBe('defect,py-label,py-renamed');
    expect((await api.GroupLabels.all(groupId)).map((label) => label.name)).toEqual(['defect']);
  });
});

/**
 * Hostile input against a listening server, through @gitbeaker/rest and plain HTTP: iids no
 * column holds, writes to an archived project, label counts past what the caller sees, a
 * Planner's delete, and a gzip bomb to git's negotiation.
 */
import { once } from 'node:events';
import { buffer } from 'node:stream/consumers';
import { createGzip } from 'node:zlib';
import { AccessLevel } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, failureOf, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';

describe('hostile input on a listening server', () => {
  let server: ListeningServer;
  let api: Api;
  let planner: UserWithToken;
  let guest: UserWithToken;
  let projectId: number;
  let projectPath: string;

  beforeAll(async () => {
    server = await startListeningServer();
    api = clientFor(server, server.rootToken);
    const group = await api.Groups.create('Hostile Group', 'hostile-group', { visibility: 'public' });
    const project = await api.Projects.create({ name: 'Hostile Project', namespaceId: group.id, visibility: 'public' });
    projectId = project.id;
    projectPath = project.path_with_namespace;
    planner = await createUserWithToken(api, server, 'hostileplanner');
    guest = await createUserWithToken(api, server, 'hostileguest');
    await api.ProjectMembers.add(projectId, 15 as typeof AccessLevel.GUEST, { userId: planner.id });
    await api.ProjectMembers.add(projectId, AccessLevel.GUEST, { userId: guest.id });
  });
  afterAll(() => server?.close());

  it('refuses iids no column holds with 400, and later creates still work', async () => {
    for (const iid of [2147483648, 2147483647, 9007199254740991]) {
      expect(await failureOf(api.Issues.create(projectId, 'Too far', { iid }))).toEqual({ status: 400, description: 'iid does not have a valid value' });
    }
    const chosen = await api.Issues.create(projectId, 'Chosen', { iid: 2000000000 });
    expect(chosen.iid).toBe(2000000000);
    const next = await api.Issues.create(projectId, 'Next');
    expect(next.iid).toBe(2000000001);
    expect((await api.Issues.show(next.iid, { projectId })).title).toBe('Next');
  });

  it('counts only the issues a Guest may list, and lets a Planner delete an issue', async () => {
    await api.ProjectLabels.create(projectId, 'hostile-count', '#112233');
    await api.Issues.create(projectId, 'Open', { labels: 'hostile-count' });
    await api.Issues.create(projectId, 'Secret', { labels: 'hostile-count', confidential: true });
    const countFor = async (client: Api) =>
      (await client.ProjectLabels.all(projectId, { withCounts: true, search: 'hostile-count' })).find((label) => label.name === 'hostile-count');
    expect(await countFor(guest.api)).toMatchObject({ open_issues_count: 1 });
    expect(await countFor(planner.api)).toMatchObject({ open_issues_count: 2 });

    const doomed = await api.Issues.create(projectId, 'Doomed');
    await planner.api.Issues.remove(projectId, doomed.iid);
    expect(await failureOf(api.Issues.show(doomed.iid, { projectId }))).toMatchObject({ status: 404 });
  });

  it('refuses issue and label writes to an archived project with 403', async () => {
    const issue = await api.Issues.create(projectId, 'Before archiving');
    await api.Projects.archive(projectId);
    expect(await failureOf(api.Issues.create(projectId, 'After archiving'))).toEqual({ status: 403, description: '403 Forbidden' });
    expect(await failureOf(api.Issues.edit(projectId, issue.iid, { title: 'Renamed' }))).toEqual({ status: 403, description: '403 Forbidden' });
    expect(await failureOf(api.ProjectLabels.create(projectId, 'archived-label', '#445566'))).toEqual({ status: 403, description: '403 Forbidden' });
    expect((await api.Issues.show(issue.iid, { projectId })).title).toBe('Before archiving');
    await api.Projects.unarchive(projectId);
    expect((await api.Issues.create(projectId, 'After unarchiving')).title).toBe('After unarchiving');
  });

  it('refuses an anonymous gzip bomb to git-upload-pack with 413', async () => {
    const head = await api.Commits.create(projectId, 'main', 'Start', [{ action: 'create', filePath: 'README.md', content: 'x' }]);
    const line = `want ${head.id}\n`;
    const want = Buffer.from((line.length + 4).toString(16).padStart(4, '0') + line);
    const gzip = createGzip({ level: 9 });
    const compressed = buffer(gzip);
    const block = Buffer.concat(Array.from({ length: 4096 }, () => want));
    for (let written = 0; written < 64 * 1024 * 1024; written += block.length) if (!gzip.write(block)) await once(gzip, 'drain');
    gzip.end();
    const res = await fetch(`${server.url}/${projectPath}.git/git-upload-pack`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-git-upload-pack-request', 'Content-Encoding': 'gzip' },
      body: await compressed,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: '413 Request Entity Too Large' });
  });
});

import { AccessLevel } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, failureOf, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';

/** Issues across projects: the instance's and a group's lists, their statistics, and the administrator's lookup by global id. */
describe('issues across projects through @gitbeaker/rest', () => {
  let server: ListeningServer;
  let admin: Api;
  let dev: UserWithToken;
  let group: { id: number };
  const ids: { web: { id: number; iid: number }; api: { id: number; iid: number }; outside: { id: number; iid: number } } = {} as never;
  const call = async (path: string, token: string | null) => {
    const res = await fetch(`${server.url}/api/v4${path}`, { headers: token ? { 'PRIVATE-TOKEN': token } : {} });
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    server = await startListeningServer();
    admin = clientFor(server, server.rootToken);
    dev = await createUserWithToken(admin, server, 'crossdev');
    group = (await admin.Groups.create('Platform', 'platform')) as unknown as { id: number };
    await admin.GroupMembers.add(group.id, AccessLevel.DEVELOPER, { userId: dev.id });
    const web = (await admin.Projects.create({ name: 'Web', namespaceId: group.id })) as unknown as { id: number };
    const api = (await admin.Projects.create({ name: 'Api', namespaceId: group.id })) as unknown as { id: number };
    const outside = (await admin.Projects.create({ name: 'Elsewhere' })) as unknown as { id: number };
    ids.web = await dev.api.Issues.create(web.id, 'Page is blank');
    ids.api = await dev.api.Issues.create(api.id, 'Timeout on list');
    await dev.api.Issues.edit(api.id, ids.api.iid, { stateEvent: 'close' });
    ids.outside = await admin.Issues.create(outside.id, 'Private matter');
  });
  afterAll(() => server?.close());

  it("lists the caller's issues across projects, and all they may see with scope=all", async () => {
    const mine = await dev.api.Issues.all();
    expect(mine.map((issue) => issue.title).sort()).toEqual(['Page is blank', 'Timeout on list']);
    const open = await dev.api.Issues.all({ state: 'opened', scope: 'all' });
    expect(open.map((issue) => issue.title)).toEqual(['Page is blank']);
    const everything = await admin.Issues.all({ scope: 'all' });
    expect(everything.map((issue) => issue.title).sort()).toEqual(['Page is blank', 'Private matter', 'Timeout on list']);
    expect((await call('/issues', null)).status).toBe(401);
  });

  it("lists a group's issues, and not those of projects outside it", async () => {
    const inGroup = await dev.api.Issues.all({ groupId: group.id });
    expect(inGroup.map((issue) => issue.title).sort()).toEqual(['Page is blank', 'Timeout on list']);
    const closed = await call(`/groups/${group.id}/issues?state=closed`, dev.token);
    expect(closed.body.map((issue: { iid: number }) => issue.iid)).toEqual([ids.api.iid]);
  });

  it('counts them: the instance, a group, a project', async () => {
    const counts = (body: { statistics: { counts: unknown } }) => body.statistics.counts;
    expect(counts((await call('/issues_statistics?scope=all', dev.token)).body)).toEqual({ all: 2, closed: 1, opened: 1 });
    expect(counts((await call('/issues_statistics?scope=all', server.rootToken)).body)).toEqual({ all: 3, closed: 1, opened: 2 });
    expect(counts((await call(`/groups/${group.id}/issues_statistics?search=blank`, dev.token)).body)).toEqual({ all: 1, closed: 0, opened: 1 });
    const stats = await dev.api.IssuesStatistics.all({ groupId: group.id });
    expect(stats).toMatchObject({ statistics: { counts: { all: 2 } } });
    expect((await call('/issues_statistics', null)).status).toBe(401);
  });

  it('finds an issue by its global id for administrators only', async () => {
    const found = await call(`/issues/${ids.outside.id}`, server.rootToken);
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ id: ids.outside.id, iid: ids.outside.iid, title: 'Private matter' });
    expect((await call(`/issues/${ids.web.id}`, dev.token)).status).toBe(403);
    expect(await failureOf(admin.Issues.show(999_999))).toMatchObject({ status: 404 });
  });
});

import { AccessLevel } from '@gitbeaker/rest';
import { corePlugin } from '@forgekit/plugin-core';
import { iterationsPlugin } from '@forgekit/plugin-iterations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, failureOf, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';
import { python } from './support/python-gitlab.js';

/** Asks `probe` until it answers something `done` accepts: the server works in the background. */
async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}; last answer: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const day = (days: number) => {
  const at = new Date();
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
};

describe('iterations through @gitbeaker/rest, python-gitlab and the REST extension', () => {
  let server: ListeningServer;
  let api: Api;
  let planner: UserWithToken;
  let guest: UserWithToken;
  let groupId: number;
  let projectId: number;

  /** The cadence extension has no client method: plain fetch with a token. */
  const rest = async (token: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': token, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (res.status === 204 ? null : await res.json()) as any };
  };

  beforeAll(async () => {
    server = await startListeningServer([corePlugin, iterationsPlugin]);
    api = clientFor(server, server.rootToken);
    groupId = (await api.Groups.create('Plan Group', 'plan-group')).id;
    projectId = (await api.Projects.create({ name: 'Plan Project', namespaceId: groupId })).id;
    planner = await createUserWithToken(api, server, 'paula');
    guest = await createUserWithToken(api, server, 'gus');
    await api.GroupMembers.add(groupId, AccessLevel.REPORTER, { userId: planner.id });
    await api.GroupMembers.add(groupId, AccessLevel.GUEST, { userId: guest.id });
  });
  afterAll(() => server?.close());

  it('manages a manual cadence and its iterations, listed through the clients', async () => {
    const cadence = await rest(planner.token, 'POST', `/groups/${groupId}/iteration_cadences`, { title: 'Manual', automatic: false });
    expect(cadence.status).toBe(201);
    const path = `/groups/${groupId}/iteration_cadences/${cadence.body.id}/iterations`;
    expect((await rest(planner.token, 'POST', path, { title: 'Done', start_date: day(-20), due_date: day(-10) })).status).toBe(201);
    expect((await rest(planner.token, 'POST', path, { title: 'Doing', start_date: day(-2), due_date: day(5) })).status).toBe(201);
    const overlap = await rest(planner.token, 'POST', path, { title: 'Clash', start_date: day(0), due_date: day(1) });
    expect(overlap).toEqual({
      status: 400,
      body: { message: { base: ['Dates cannot overlap with other existing Iterations within this iterations cadence'] } },
    });
    expect((await rest(guest.token, 'POST', path, { start_date: day(30), due_date: day(31) })).status).toBe(403);

    const all = await guest.api.GroupIterations.all(groupId);
    expect(all.map((iteration) => [iteration.title, iteration.state])).toEqual([
      ['Done', 3],
      ['Doing', 2],
    ]);
    expect(all[0]).toMatchObject({ group_id: groupId, sequence: 1, iid: 1, web_url: `${server.url}/groups/plan-group/-/iterations/${all[0]!.id}` });
    expect((await guest.api.GroupIterations.all(groupId, { state: 'current' })).map((iteration) => iteration.title)).toEqual(['Doing']);
    // gitbeaker's ProjectIterations asks `/project/:id/iterations` (singular), which GitLab does not serve either.
    const fromProjectRest = await rest(guest.token, 'GET', `/projects/${projectId}/iterations?search=don`);
    expect(fromProjectRest.body.map((iteration: { title: string }) => iteration.title)).toEqual(['Done']);

    const listed = await python(
      server,
      guest.token,
      `g = gl.groups.get(${groupId})\nprint(json.dumps([[i.title, i.state] for i in g.iterations.list(state='closed', get_all=True)]))`,
    );
    expect(listed).toEqual([['Done', 3]]);
    // python-gitlab 3.12 gives projects a group iteration manager; its project manager asks the right path.
    const fromProject = await python(
      server,
      guest.token,
      `from gitlab.v4.objects import ProjectIterationManager\np = gl.projects.get(${projectId})\nprint(json.dumps([i.title for i in ProjectIterationManager(gl, parent=p).list(get_all=True)]))`,
    );
    expect(fromProject).toEqual(['Done', 'Doing']);
  });

  it('schedules an automatic cadence in the background', async () => {
    const cadence = await rest(planner.token, 'POST', `/groups/${groupId}/iteration_cadences`, {
      title: 'Auto',
      start_date: day(1),
      duration_in_weeks: 2,
      iterations_in_advance: 2,
    });
    expect(cadence.status).toBe(201);
    // The server schedules them in the background, all in one transaction.
    const upcoming = await until(
      () => guest.api.GroupIterations.all(groupId, { state: 'upcoming', search: 'auto', in: 'cadence_title' } as never),
      (list) => list.length > 0,
      'the cadence has iterations',
    );
    expect(upcoming.map((iteration) => [iteration.start_date, iteration.due_date, iteration.title, iteration.description])).toEqual([
      [day(1), day(14), null, null],
      [day(15), day(28), null, null],
    ]);
  });

  it('answers 404 to strangers and anonymous callers of a private group', async () => {
    const stranger = await createUserWithToken(api, server, 'stan');
    expect(await failureOf(stranger.api.GroupIterations.all(groupId))).toEqual({ status: 404, description: '404 Group Not Found' });
    expect(await rest(stranger.token, 'GET', `/projects/${projectId}/iterations`)).toEqual({ status: 404, body: { message: '404 Project Not Found' } });
    const anonymous = await fetch(`${server.url}/api/v4/groups/${groupId}/iterations`);
    expect(anonymous.status).toBe(404);
  });

  it("drops a deleted subgroup's iterations from its parent's list", async () => {
    const doomed = await api.Groups.create('Doomed', 'doomed', { parentId: groupId });
    const cadence = await rest(server.rootToken, 'POST', `/groups/${doomed.id}/iteration_cadences`, { title: 'Gone', automatic: false });
    const iteration = await rest(server.rootToken, 'POST', `/groups/${doomed.id}/iteration_cadences/${cadence.body.id}/iterations`, {
      title: 'Doomed sprint',
      start_date: day(1),
      due_date: day(2),
    });
    expect(iteration.status).toBe(201);
    const withDescendants = async () =>
      (await api.GroupIterations.all(groupId, { includeDescendants: true } as never)).map((listed) => listed.id).includes(iteration.body.id);
    expect(await withDescendants()).toBe(true);

    await api.Groups.remove(doomed.id);
    expect(await withDescendants()).toBe(false);
    // The cadence extension no longer finds the group either.
    expect(await rest(server.rootToken, 'GET', `/groups/${doomed.id}/iteration_cadences`)).toEqual({ status: 404, body: { message: '404 Group Not Found' } });
  });
});

import { AccessLevel } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** A planner edits a manual cadence and its iterations, then removes them, through plain requests. */
describe('iteration cadence edits and removal', () => {
  let server: ListeningServer;
  let admin: Api;
  let guest: UserWithToken;
  let cadencePath: string;
  const rest = async (token: string, method: string, path: string, body?: Record<string, unknown>) => {
    const res = await fetch(`${server.url}/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' },
      body: body && JSON.stringify(body),
    });
    return { status: res.status, body: res.status === 204 ? null : ((await res.json()) as any) };
  };

  beforeAll(async () => {
    server = await startListeningServer();
    admin = clientFor(server, server.rootToken);
    guest = await createUserWithToken(admin, server, 'cadenceguest');
    const group = (await admin.Groups.create('Planning', 'planning')) as unknown as { id: number };
    await admin.GroupMembers.add(group.id, AccessLevel.GUEST, { userId: guest.id });
    const cadence = await rest(server.rootToken, 'POST', `/groups/${group.id}/iteration_cadences`, { title: 'Sprints', automatic: false });
    cadencePath = `/groups/${group.id}/iteration_cadences/${cadence.body.id}`;
  });
  afterAll(() => server?.close());

  it('shows and edits the cadence', async () => {
    expect((await rest(guest.token, 'GET', cadencePath)).body).toMatchObject({ title: 'Sprints', automatic: false });
    const edited = await rest(server.rootToken, 'PUT', cadencePath, { title: 'Two-week sprints', description: 'Every other Monday' });
    expect(edited.body).toMatchObject({ title: 'Two-week sprints', description: 'Every other Monday' });
    expect((await rest(guest.token, 'PUT', cadencePath, { title: 'Mine' })).status).toBe(403);
  });

  it('moves an iteration, refusing an overlap, and removes it', async () => {
    const first = await rest(server.rootToken, 'POST', `${cadencePath}/iterations`, { title: 'One', start_date: day(1), due_date: day(7) });
    const second = await rest(server.rootToken, 'POST', `${cadencePath}/iterations`, { title: 'Two', start_date: day(8), due_date: day(14) });
    const moved = await rest(server.rootToken, 'PUT', `${cadencePath}/iterations/${second.body.id}`, { title: 'Two (late)', due_date: day(20) });
    expect(moved.body).toMatchObject({ id: second.body.id, title: 'Two (late)', due_date: day(20) });
    const clash = await rest(server.rootToken, 'PUT', `${cadencePath}/iterations/${second.body.id}`, { start_date: day(5) });
    expect(clash.status).toBe(400);

    expect((await rest(server.rootToken, 'DELETE', `${cadencePath}/iterations/${first.body.id}`)).status).toBe(204);
    expect((await rest(server.rootToken, 'DELETE', `${cadencePath}/iterations/${first.body.id}`)).status).toBe(404);
  });

  it('removes the cadence', async () => {
    expect((await rest(guest.token, 'DELETE', cadencePath)).status).toBe(403);
    expect((await rest(server.rootToken, 'DELETE', cadencePath)).status).toBe(204);
    expect((await rest(server.rootToken, 'GET', cadencePath)).status).toBe(404);
  });
});

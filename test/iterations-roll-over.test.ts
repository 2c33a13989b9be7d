/** Roll-over through the composed server: a rolling cadence's open issues follow it into the next iteration. */
import { allPlugins } from '@forgekit/server';
import { SCHEDULE_JOB } from '@forgekit/plugin-iterations';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Api, clientFor } from './support/gitbeaker.js';
import { type ListeningServer, startListeningServer } from './support/listening-server.js';

const DAY = 86_400_000;
const START = Date.now();
const day = (days: number) => new Date(START + days * DAY).toISOString().slice(0, 10);

describe('iteration roll-over on a listening server', () => {
  let server: ListeningServer;
  let api: Api;
  let groupId: number;
  let projectId: number;

  const rest = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': server.rootToken, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  /** Runs the periodic job with the clock `days` after the start, then puts the clock back. */
  async function runJobAfter(days: number) {
    vi.useFakeTimers({ toFake: ['Date'], now: START + days * DAY });
    try {
      await server.kernel.jobs.run(SCHEDULE_JOB, undefined);
    } finally {
      vi.useRealTimers();
    }
  }

  beforeAll(async () => {
    server = await startListeningServer(allPlugins);
    api = clientFor(server, server.rootToken);
    groupId = (await api.Groups.create('Sprint Group', 'sprint-group')).id;
    projectId = (await api.Projects.create({ name: 'Sprint Project', namespaceId: groupId })).id;
  });
  afterEach(() => vi.useRealTimers());
  afterAll(() => server?.close());

  it('moves the open issues of a closed iteration into the next one, and leaves the closed ones', async () => {
    const cadence = await rest('POST', `/groups/${groupId}/iteration_cadences`, {
      title: 'Weekly',
      start_date: day(0),
      duration_in_weeks: 1,
      iterations_in_advance: 2,
      roll_over: true,
    });
    expect(cadence.status).toBe(201);
    await server.kernel.jobs.run(SCHEDULE_JOB, { cadenceId: cadence.body.id });
    const [current, next] = await api.GroupIterations.all(groupId);
    expect([current!.state, current!.start_date, next!.state, next!.start_date]).toEqual([2, day(0), 1, day(7)]);

    const unfinished = await api.Issues.create(projectId, 'Unfinished', { iterationId: current!.id } as never);
    const finished = await api.Issues.create(projectId, 'Finished', { iterationId: current!.id } as never);
    await api.Issues.edit(projectId, finished.iid, { stateEvent: 'close' });
    const iterationOf = async (iid: number) => ((await api.Issues.show(iid, { projectId })) as unknown as { iteration: { id: number } | null }).iteration?.id;
    expect(await iterationOf(unfinished.iid)).toBe(current!.id);

    await runJobAfter(6);
    expect(await iterationOf(unfinished.iid)).toBe(current!.id);
    await runJobAfter(7);
    expect(await iterationOf(unfinished.iid)).toBe(next!.id);
    expect(await iterationOf(finished.iid)).toBe(current!.id);
    const inNext = await api.Issues.all({ projectId, iterationId: next!.id } as never);
    expect(inNext.map((issue) => issue.title)).toEqual(['Unfinished']);
  });
});

import { iterationEvents, iterationsPlugin, SCHEDULE_JOB } from '@forgekit/plugin-iterations';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { issuesPlugin } from '../plugin.js';

const DAY = 86_400_000;
const START = Date.now();
const dayFrom = (days: number) => new Date(START + days * DAY).toISOString().slice(0, 10);

describe('roll-over of open issues when an iteration closes', () => {
  let app: TestApp;
  let issues: string;

  beforeAll(async () => {
    app = await createTestApp({ plugins: [iterationsPlugin, labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, issuesPlugin] });
    issues = `/api/v4/projects/${app.project.id}/issues`;
  });
  afterEach(() => vi.useRealTimers());
  afterAll(() => app.close());

  /** An automatic one-week cadence starting today, scheduled now: its iterations by date, [current, next, …]. */
  async function automaticCadence(title: string, rollOver: boolean) {
    const cadence = await app.post(
      `/api/v4/groups/${app.group.id}/iteration_cadences`,
      { title, start_date: dayFrom(0), duration_in_weeks: 1, iterations_in_advance: 2, roll_over: rollOver },
      { token: 'owner' },
    );
    expect(cadence.status).toBe(201);
    await app.kernel.jobs.run(SCHEDULE_JOB, { cadenceId: cadence.body.id });
    expect(cadence.body.roll_over).toBe(rollOver);
    const listed = await app.get(`/api/v4/groups/${app.group.id}/iterations`, { token: 'owner', query: { search: title, in: 'cadence_title' } });
    return { cadenceId: cadence.body.id as number, iterationIds: (listed.body as { id: number }[]).map((iteration) => iteration.id) };
  }

  async function issueIn(iterationId: number, title: string, closed = false) {
    const res = await app.post(issues, { title, iteration_id: iterationId }, { token: 'maintainer' });
    expect(res.status).toBe(201);
    if (closed) expect((await app.put(`${issues}/${res.body.iid}`, { state_event: 'close' }, { token: 'maintainer' })).status).toBe(200);
    return res.body.iid as number;
  }
  const iterationOf = async (iid: number) => (await app.get(`${issues}/${iid}`, { token: 'maintainer' })).body.iteration?.id ?? null;

  /** Sets the clock `days` after the start (dates only) and runs the periodic job. */
  async function runJobAfter(days: number) {
    vi.useFakeTimers({ toFake: ['Date'], now: START + days * DAY });
    await app.kernel.jobs.run(SCHEDULE_JOB, undefined);
  }

  it('moves the open issues of the closed iteration to the next one, leaves closed issues, and does it once', async () => {
    const { cadenceId, iterationIds } = await automaticCadence('Rolling', true);
    const listed = (await app.get(`/api/v4/groups/${app.group.id}/iterations`, { token: 'owner' })).body as { id: number; state: number }[];
    const [current, next] = iterationIds.slice(0, 2).map((id) => listed.find((iteration) => iteration.id === id)!);
    expect(current.state).toBe(2);
    expect(next.state).toBe(1);
    const open = await issueIn(current.id, 'Unfinished');
    const done = await issueIn(current.id, 'Finished', true);
    const elsewhere = await issueIn(next.id, 'Planned later');
    const closedEvents: unknown[] = [];
    app.kernel.events.on(iterationEvents.closed, (payload) => {
      closedEvents.push(payload);
    });

    await runJobAfter(0);
    expect(await iterationOf(open)).toBe(current.id);

    await runJobAfter(7);
    expect(await iterationOf(open)).toBe(next.id);
    expect(await iterationOf(done)).toBe(current.id);
    expect(await iterationOf(elsewhere)).toBe(next.id);
    expect(closedEvents).toEqual([{ iterationId: current.id, groupId: app.group.id, cadenceId, rollOver: true, nextIterationId: next.id }]);

    // An issue put back into the closed iteration by hand stays there: the iteration closes once.
    const back = await app.put(`${issues}/${open}`, { iteration_id: current.id }, { token: 'maintainer' });
    expect(back.body.iteration.id).toBe(current.id);
    await runJobAfter(8);
    expect(await iterationOf(open)).toBe(current.id);
    expect(closedEvents).toHaveLength(1);

    // The next iteration closes in turn, into the one after it.
    await runJobAfter(14);
    expect(await iterationOf(elsewhere)).toBe(iterationIds[2]);
    expect(closedEvents).toHaveLength(2);
  });

  it('leaves the issues of a cadence that does not roll over', async () => {
    const { iterationIds } = await automaticCadence('Still', false);
    const open = await issueIn(iterationIds[0]!, 'Stays');
    await runJobAfter(7);
    expect(await iterationOf(open)).toBe(iterationIds[0]);
  });
});

import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type IterationClosed, iterationEvents } from '../contracts.js';
import { iterationsPlugin, SCHEDULE_JOB } from '../plugin.js';
import { day, manualCadence, manualIteration } from '../testing/fixtures.js';

const DAY = 86_400_000;
const START = Date.now();

describe('closing iterations in the periodic job', () => {
  let app: TestApp;
  let closed: IterationClosed[];

  /** Sets the clock `days` after the start (dates only) and runs the periodic job. */
  async function runJobAfter(days: number) {
    vi.useFakeTimers({ toFake: ['Date'], now: START + days * DAY });
    await app.kernel.jobs.run(SCHEDULE_JOB, undefined);
    vi.useRealTimers();
  }

  beforeAll(async () => {
    app = await createTestApp({ plugins: [iterationsPlugin] });
    app.kernel.events.on(iterationEvents.closed, (payload) => {
      closed.push(payload);
    });
  });
  beforeEach(() => {
    closed = [];
  });
  afterEach(() => vi.useRealTimers());
  afterAll(() => app?.close());

  it('closes an iteration once its due date has passed, once, naming the next open one; a manual cadence never rolls over', async () => {
    const cadenceId = await manualCadence(app, app.group.id, 'Closing');
    const first = await manualIteration(app, app.group.id, cadenceId, { start_date: day(0), due_date: day(2) });
    const second = await manualIteration(app, app.group.id, cadenceId, { start_date: day(3), due_date: day(5) });

    await runJobAfter(2);
    expect(closed).toEqual([]);
    await runJobAfter(3);
    expect(closed).toEqual([{ iterationId: first.id, groupId: app.group.id, cadenceId, rollOver: false, nextIterationId: second.id }]);
    await runJobAfter(4);
    expect(closed).toHaveLength(1);
    await runJobAfter(10);
    expect(closed).toEqual([
      { iterationId: first.id, groupId: app.group.id, cadenceId, rollOver: false, nextIterationId: second.id },
      { iterationId: second.id, groupId: app.group.id, cadenceId, rollOver: false, nextIterationId: null },
    ]);
  });

  it('does not close again an iteration created or moved into the past', async () => {
    const cadenceId = await manualCadence(app, app.group.id, 'Past');
    await manualIteration(app, app.group.id, cadenceId, { start_date: day(-9), due_date: day(-8) });
    const moved = await manualIteration(app, app.group.id, cadenceId, { start_date: day(-3), due_date: day(1) });
    const put = await app.put(
      `/api/v4/groups/${app.group.id}/iteration_cadences/${cadenceId}/iterations/${moved.id}`,
      { due_date: day(-1) },
      { token: 'owner' },
    );
    expect(put.body.state).toBe(3);
    await runJobAfter(0);
    expect(closed).toEqual([]);
  });

  it('closes again an iteration moved back into the future that then passes', async () => {
    const cadenceId = await manualCadence(app, app.group.id, 'Reopened');
    const iteration = await manualIteration(app, app.group.id, cadenceId, { start_date: day(-20), due_date: day(-19) });
    const path = `/api/v4/groups/${app.group.id}/iteration_cadences/${cadenceId}/iterations/${iteration.id}`;
    expect((await app.put(path, { due_date: day(1) }, { token: 'owner' })).body.state).toBe(2);
    await runJobAfter(2);
    expect(closed.map((event) => event.iterationId)).toEqual([iteration.id]);
  });

  it('says an automatic cadence with roll_over rolls over', async () => {
    const cadence = await app.post(
      `/api/v4/groups/${app.group.id}/iteration_cadences`,
      { title: 'Rolling', start_date: day(0), duration_in_weeks: 1, iterations_in_advance: 1, roll_over: true },
      { token: 'owner' },
    );
    expect(cadence.status).toBe(201);
    await app.kernel.jobs.run(SCHEDULE_JOB, { cadenceId: cadence.body.id });
    await runJobAfter(7);
    const mine = closed.filter((event) => event.cadenceId === cadence.body.id);
    expect(mine).toEqual([
      { iterationId: expect.any(Number), groupId: app.group.id, cadenceId: cadence.body.id, rollOver: true, nextIterationId: expect.any(Number) },
    ]);
    expect(mine[0]!.nextIterationId).not.toBe(mine[0]!.iterationId);
  });
});

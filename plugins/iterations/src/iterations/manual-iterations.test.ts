import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { iterationEvents } from '../contracts.js';
import { iterationsPlugin } from '../plugin.js';
import { day, manualCadence, manualIteration } from '../testing/fixtures.js';

describe('iterations of a manual cadence', () => {
  let app: TestApp;
  let cadence: number;
  let base: string;
  const seen: { name: string; payload: unknown }[] = [];

  beforeAll(async () => {
    app = await createTestApp({ plugins: [iterationsPlugin] });
    for (const [name, event] of Object.entries(iterationEvents)) app.kernel.events.on(event, (payload) => void seen.push({ name, payload }));
    cadence = await manualCadence(app, app.group.id);
    base = `/api/v4/groups/${app.group.id}/iteration_cadences/${cadence}/iterations`;
  });
  afterAll(() => app?.close());

  it('creates an iteration with its title, description and dates', async () => {
    const res = await app.post(base, { title: 'Sprint 1', description: 'first', start_date: day(1), due_date: day(14) }, { token: 'reporter' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      iid: 1,
      sequence: 1,
      group_id: app.group.id,
      title: 'Sprint 1',
      description: 'first',
      state: 1,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      start_date: day(1),
      due_date: day(14),
      web_url: `http://localhost/groups/test-group/-/iterations/${res.body.id}`,
    });
    expect(seen.at(-1)).toEqual({ name: 'created', payload: { iterationId: res.body.id, groupId: app.group.id } });
  });

  it('orders sequences by start date as iterations are added', async () => {
    const earlier = await manualIteration(app, app.group.id, cadence, { title: 'Sprint 0', start_date: day(-13), due_date: day(0) });
    expect(earlier).toMatchObject({ iid: 2, sequence: 1, state: 2 });
    const list = await app.get(`/api/v4/groups/${app.group.id}/iterations`, { token: 'guest' });
    expect(list.body.map((i: { title: string; sequence: number }) => [i.title, i.sequence])).toEqual([
      ['Sprint 0', 1],
      ['Sprint 1', 2],
    ]);
  });

  it('refuses overlapping dates, a due date before the start, and a title taken in the cadence', async () => {
    const overlap = await app.post(base, { title: 'Overlap', start_date: day(10), due_date: day(20) }, { token: 'owner' });
    expect(overlap.status).toBe(400);
    expect(overlap.body).toEqual({ message: { base: ['Dates cannot overlap with other existing Iterations within this iterations cadence'] } });
    const backwards = await app.post(base, { start_date: day(40), due_date: day(30) }, { token: 'owner' });
    expect(backwards.body).toEqual({ message: { due_date: ['must be greater than start date'] } });
    const taken = await app.post(base, { title: 'Sprint 1', start_date: day(50), due_date: day(60) }, { token: 'owner' });
    expect(taken.body).toEqual({ message: { title: ['already being used for another iteration within this cadence.'] } });
    const far = await app.post(base, { start_date: '2999-01-01', due_date: '2999-01-10' }, { token: 'owner' });
    expect(far.body).toEqual({
      message: { start_date: ['cannot be more than 500 years in the future'], due_date: ['cannot be more than 500 years in the future'] },
    });
    const long = await app.post(base, { title: 'x'.repeat(256), start_date: day(70), due_date: day(71) }, { token: 'owner' });
    expect(long.body).toEqual({ message: { title: ['is too long (maximum is 255 characters)'] } });
  });

  it('requires both dates', async () => {
    const res = await app.post(base, { title: 'No dates' }, { token: 'owner' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'start_date is missing, due_date is missing' });
    expect((await app.post(base, { start_date: 'tomorrow', due_date: day(1) }, { token: 'owner' })).body).toEqual({ error: 'start_date is invalid' });
  });

  it('refuses manual iterations in an automatic cadence', async () => {
    const auto = await app.post(
      `/api/v4/groups/${app.group.id}/iteration_cadences`,
      { title: 'Auto', start_date: day(100), duration_in_weeks: 1, iterations_in_advance: 1, active: false },
      { token: 'owner' },
    );
    const res = await app.post(
      `/api/v4/groups/${app.group.id}/iteration_cadences/${auto.body.id}/iterations`,
      { start_date: day(200), due_date: day(201) },
      { token: 'owner' },
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { base: ['Iterations cannot be manually added to cadences that use automatic scheduling'] } });
  });

  it('updates an iteration, announcing the changed fields, and checks overlaps against the others', async () => {
    const it3 = await manualIteration(app, app.group.id, cadence, { title: 'Sprint 2', start_date: day(15), due_date: day(28) });
    const res = await app.put(`${base}/${it3.id}`, { title: 'Sprint Two', description: 'second' }, { token: 'developer' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Sprint Two', description: 'second', start_date: day(15) });
    expect(seen.at(-1)).toEqual({
      name: 'updated',
      payload: {
        iterationId: it3.id,
        groupId: app.group.id,
        changes: { title: { previous: 'Sprint 2', current: 'Sprint Two' }, description: { previous: null, current: 'second' } },
      },
    });
    const clash = await app.put(`${base}/${it3.id}`, { start_date: day(14) }, { token: 'owner' });
    expect(clash.body).toEqual({ message: { base: ['Dates cannot overlap with other existing Iterations within this iterations cadence'] } });
    const moved = await app.put(`${base}/${it3.id}`, { start_date: day(16), due_date: day(29) }, { token: 'owner' });
    expect(moved.body).toMatchObject({ start_date: day(16), due_date: day(29), sequence: 3 });
  });

  it('deletes an iteration and renumbers the sequence', async () => {
    const list = await app.get(`/api/v4/groups/${app.group.id}/iterations`, { token: 'guest' });
    const first = list.body[0];
    expect((await app.delete(`${base}/${first.id}`, { token: 'owner' })).status).toBe(204);
    expect(seen.at(-1)).toEqual({ name: 'deleted', payload: { iterationId: first.id, groupId: app.group.id } });
    const after = await app.get(`/api/v4/groups/${app.group.id}/iterations`, { token: 'guest' });
    expect(after.body.map((i: { sequence: number }) => i.sequence)).toEqual([1, 2]);
  });

  it('keeps iteration writes to planners and above, and 404s for unknown iterations', async () => {
    const list = await app.get(`/api/v4/groups/${app.group.id}/iterations`, { token: 'guest' });
    const id = list.body[0].id;
    expect((await app.post(base, { start_date: day(300), due_date: day(301) }, { token: 'guest' })).body).toEqual({ message: '403 Forbidden' });
    expect((await app.put(`${base}/${id}`, { title: 'g' }, { token: 'guest' })).status).toBe(403);
    expect((await app.delete(`${base}/${id}`, { token: 'guest' })).status).toBe(403);
    expect((await app.post(base, { start_date: day(300), due_date: day(301) }, { token: null })).status).toBe(401);
    expect((await app.put(`${base}/999999`, { title: 'x' }, { token: 'owner' })).body).toEqual({ message: '404 Iteration Not Found' });
    expect((await app.delete(`${base}/nope`, { token: 'owner' })).body).toEqual({ message: '404 Iteration Not Found' });
    const other = await manualCadence(app, app.group.id, 'Other');
    const wrongCadence = `/api/v4/groups/${app.group.id}/iteration_cadences/${other}/iterations/${id}`;
    expect((await app.delete(wrongCadence, { token: 'owner' })).body).toEqual({ message: '404 Iteration Not Found' });
  });

  it('never gives a deleted iteration’s iid again', async () => {
    const highest = await app.post(base, { start_date: day(400), due_date: day(401) }, { token: 'owner' });
    expect(highest.status).toBe(201);
    expect((await app.delete(`${base}/${highest.body.id}`, { token: 'owner' })).status).toBe(204);
    const next = await app.post(base, { start_date: day(410), due_date: day(411) }, { token: 'owner' });
    expect(next).toMatchObject({ status: 201, body: { iid: highest.body.iid + 1 } });
  });
});

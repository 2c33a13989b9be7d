import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { iterationsPlugin, SCHEDULE_JOB } from '../plugin.js';
import { day } from '../testing/fixtures.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** `Jan  5, 2026 - Jan 18, 2026`, as Rails prints dates in GitLab's messages. */
const period = (...dates: string[]) =>
  dates.map((date) => `${MONTHS[Number(date.slice(5, 7)) - 1]} ${date.slice(8).replace(/^0/, ' ')}, ${date.slice(0, 4)}`).join(' - ');

describe('iteration cadences (REST extension)', () => {
  let app: TestApp;
  let base: string;

  beforeAll(async () => {
    app = await createTestApp({ plugins: [iterationsPlugin] });
    base = `/api/v4/groups/${app.group.id}/iteration_cadences`;
  });
  afterAll(() => app?.close());

  it('creates, shows, lists, updates and deletes a manual cadence', async () => {
    const created = await app.post(base, { title: 'Sprints', automatic: false, description: 'two weeks' }, { token: 'reporter' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      group_id: app.group.id,
      title: 'Sprints',
      description: 'two weeks',
      automatic: false,
      active: true,
      roll_over: false,
      start_date: null,
      duration_in_weeks: null,
      iterations_in_advance: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const item = `${base}/${created.body.id}`;
    expect((await app.get(item, { token: 'guest' })).body).toEqual(created.body);
    const list = await app.get(base, { token: 'guest' });
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total')).toBe('1');
    expect(list.body).toEqual([created.body]);

    const updated = await app.put(item, { title: 'Renamed', active: false, description: null }, { token: 'reporter' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ title: 'Renamed', active: false, description: null, automatic: false });

    expect((await app.delete(item, { token: 'reporter' })).status).toBe(204);
    expect((await app.get(item, { token: 'guest' })).status).toBe(404);
  });

  it('finds the group by its path, and paginates', async () => {
    expect((await app.get('/api/v4/groups/test-group/iteration_cadences', { token: 'guest' })).status).toBe(200);
    await app.post(base, { title: 'One', automatic: false }, { token: 'owner' });
    await app.post(base, { title: 'Two', automatic: false }, { token: 'owner' });
    const second = await app.get(base, { token: 'guest', query: { per_page: 1, page: 2 } });
    expect(second.body.map((cadence: { title: string }) => cadence.title)).toEqual(['Two']);
    expect(second.headers.get('x-total')).toBe('2');
    // The tests below count cadences from none.
    for (const cadence of (await app.get(base, { token: 'guest' })).body) await app.delete(`${base}/${cadence.id}`, { token: 'owner' });
    expect((await app.get(base, { token: 'guest' })).body).toEqual([]);
  });

  it('schedules the iterations of an automatic cadence, idempotently', async () => {
    const created = await app.post(
      base,
      { title: 'Weekly', automatic: true, start_date: day(-3), duration_in_weeks: 1, iterations_in_advance: 2 },
      { token: 'owner' },
    );
    expect(created.status).toBe(201);
    await app.kernel.jobs.run(SCHEDULE_JOB, { cadenceId: created.body.id });
    await app.kernel.jobs.run(SCHEDULE_JOB, {});
    const list = await app.get(`/api/v4/groups/${app.group.id}/iterations`, { token: 'guest', query: { search: 'Weekly', in: 'cadence_title' } });
    expect(
      list.body.map((i: { start_date: string; due_date: string; state: number; title: null; sequence: number }) => [
        i.sequence,
        i.start_date,
        i.due_date,
        i.state,
        i.title,
      ]),
    ).toEqual([
      [1, day(-3), day(3), 2, null],
      [2, day(4), day(10), 1, null],
      [3, day(11), day(17), 1, null],
    ]);
    expect(list.body[0].description).toBeNull();

    // More iterations in advance schedule more; a new start date replaces the upcoming ones.
    await app.put(`${base}/${created.body.id}`, { iterations_in_advance: 3 }, { token: 'owner' });
    await app.kernel.jobs.run(SCHEDULE_JOB, { cadenceId: created.body.id });
    const more = await app.get(`/api/v4/groups/${app.group.id}/iterations`, { token: 'guest', query: { search: 'Weekly', in: 'cadence_title' } });
    expect(more.body.map((i: { start_date: string }) => i.start_date)).toEqual([day(-3), day(4), day(11), day(18)]);

    const overlapping = await app.put(`${base}/${created.body.id}`, { duration_in_weeks: 2 }, { token: 'owner' });
    expect(overlapping.status).toBe(400);
    expect(overlapping.body).toEqual({ message: { base: [`The automation start date must come after the active iteration ${period(day(-3), day(3))}.`] } });
    const moved = await app.put(`${base}/${created.body.id}`, { duration_in_weeks: 2, start_date: day(4) }, { token: 'owner' });
    expect(moved.status).toBe(200);
    await app.kernel.jobs.run(SCHEDULE_JOB, { cadenceId: created.body.id });
    const longer = await app.get(`/api/v4/groups/${app.group.id}/iterations`, { token: 'guest', query: { search: 'Weekly', in: 'cadence_title' } });
    expect(longer.body.map((i: { start_date: string; due_date: string }) => [i.start_date, i.due_date])).toEqual([
      [day(-3), day(3)],
      [day(4), day(17)],
      [day(18), day(31)],
      [day(32), day(45)],
    ]);

    expect((await app.delete(`${base}/${created.body.id}`, { token: 'owner' })).status).toBe(204);
    const gone = await app.get(`/api/v4/groups/${app.group.id}/iterations`, { token: 'guest', query: { search: 'Weekly', in: 'cadence_title' } });
    expect(gone.body).toEqual([]);
  });

  it('an inactive automatic cadence schedules nothing', async () => {
    const created = await app.post(
      base,
      { title: 'Paused', start_date: day(1), duration_in_weeks: 1, iterations_in_advance: 1, active: false },
      { token: 'owner' },
    );
    await app.kernel.jobs.run(SCHEDULE_JOB, { cadenceId: created.body.id });
    const list = await app.get(`/api/v4/groups/${app.group.id}/iterations`, { token: 'guest', query: { search: 'Paused', in: 'cadence_title' } });
    expect(list.body).toEqual([]);
  });

  it("refuses an automatic cadence without its schedule, with the model's errors", async () => {
    const res = await app.post(base, { title: 'Auto' }, { token: 'owner' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: { start_date: ["can't be blank"], duration_in_weeks: ["can't be blank"], iterations_in_advance: ["can't be blank"] },
    });
    const bad = await app.post(base, { title: ' ', automatic: false }, { token: 'owner' });
    expect(bad.body).toEqual({ message: { title: ["can't be blank"] } });
    const past = await app.post(base, { title: 'Past', start_date: day(-7), duration_in_weeks: 1, iterations_in_advance: 1 }, { token: 'owner' });
    expect(past.body).toEqual({
      message: { base: [`The automation start date would retroactively create a past iteration. ${day(-6)} is the earliest possible start date.`] },
    });
    const long = await app.post(base, { title: 'x'.repeat(256), automatic: false, description: 'd'.repeat(5001) }, { token: 'owner' });
    expect(long.body).toEqual({
      message: { title: ['is too long (maximum is 255 characters)'], description: ['is too long (maximum is 5000 characters)'] },
    });
    const weeks = await app.post(base, { title: 'W', start_date: day(0), duration_in_weeks: 5, iterations_in_advance: 11 }, { token: 'owner' });
    expect(weeks.body).toEqual({ message: { duration_in_weeks: ['is not included in the list'], iterations_in_advance: ['is not included in the list'] } });
  });

  it('validates parameter types and requires a title', async () => {
    expect((await app.post(base, { automatic: false }, { token: 'owner' })).body).toEqual({ error: 'title is missing' });
    expect((await app.post(base, { title: 'T', start_date: 'soon' }, { token: 'owner' })).body).toEqual({ error: 'start_date is invalid' });
    expect((await app.post(base, { title: 'T', duration_in_weeks: 'two' }, { token: 'owner' })).body).toEqual({ error: 'duration_in_weeks is invalid' });
  });

  it('keeps writes to planners and above, reads to who may see the group', async () => {
    expect((await app.post(base, { title: 'G', automatic: false }, { token: 'guest' })).status).toBe(403);
    expect((await app.post(base, { title: 'G', automatic: false }, { token: 'guest' })).body).toEqual({ message: '403 Forbidden' });
    expect((await app.post(base, { title: 'N', automatic: false }, { token: 'nonMember' })).body).toEqual({ message: '404 Group Not Found' });
    expect((await app.get(base, { token: 'nonMember' })).status).toBe(404);
    expect((await app.get(base, { token: null })).body).toEqual({ message: '404 Group Not Found' });
    expect((await app.post(base, { title: 'A', automatic: false }, { token: null })).status).toBe(401);
    expect((await app.get('/api/v4/groups/999999/iteration_cadences', { token: 'admin' })).status).toBe(404);

    const created = await app.post(base, { title: 'Locked', automatic: false }, { token: 'owner' });
    const item = `${base}/${created.body.id}`;
    expect((await app.put(item, { title: 'x' }, { token: 'guest' })).status).toBe(403);
    expect((await app.delete(item, { token: 'guest' })).status).toBe(403);
    expect((await app.put(item, { title: 'Admin' }, { token: 'admin' })).status).toBe(200);
  });

  it('answers 404 for a cadence of another group or an id that is not one', async () => {
    for (const path of [`${base}/999999`, `${base}/abc`]) {
      const res = await app.get(path, { token: 'owner' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Iteration Cadence Not Found' });
    }
    expect((await app.put(`${base}/999999`, { title: 'x' }, { token: 'owner' })).body).toEqual({ message: '404 Iteration Cadence Not Found' });
    expect((await app.delete(`${base}/999999`, { token: 'owner' })).body).toEqual({ message: '404 Iteration Cadence Not Found' });
  });
});

describe('a cadence turned manual', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ plugins: [iterationsPlugin] });
  });
  afterAll(() => app?.close());

  it('forgets its automation settings and keeps its iterations', async () => {
    const base = `/api/v4/groups/${app.group.id}/iteration_cadences`;
    const created = await app.post(
      base,
      { title: 'Auto', start_date: day(0), duration_in_weeks: 1, iterations_in_advance: 1, roll_over: true },
      { token: 'owner' },
    );
    await app.kernel.jobs.run(SCHEDULE_JOB, { cadenceId: created.body.id });
    const manual = await app.put(`${base}/${created.body.id}`, { automatic: false }, { token: 'owner' });
    expect(manual.body).toMatchObject({ automatic: false, roll_over: false, duration_in_weeks: null, iterations_in_advance: null, start_date: day(0) });
    const list = await app.get(`/api/v4/groups/${app.group.id}/iterations`, { token: 'owner' });
    expect(list.body).toHaveLength(2);
  });
});

import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PipelineEntity } from '../entities/pipeline.js';
import { createSchedule, newProject, projectSchedulesPath, schedulePlugins, schedulesPath, setScheduleLimit } from '../testing/schedule-fixtures.js';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ plugins: schedulePlugins() });
  await setScheduleLimit(app, 0);
});
afterAll(() => app?.close());

const ids = (res: { body: { id: number }[] }) => res.body.map((pipeline) => pipeline.id);

describe('POST .../play', () => {
  it('starts a scheduled pipeline at once, answers 201 Created and leaves the next run alone', async () => {
    const schedule = await createSchedule(app, 'maintainer');
    const res = await app.post(`${schedulesPath(app)}/${schedule.id}/play`, undefined, { token: 'developer' });
    expect(res).toMatchObject({ status: 201, body: { message: '201 Created' } });
    const details = await app.get(`${schedulesPath(app)}/${schedule.id}`, { token: 'developer' });
    expect(details.body.next_run_at).toBe(schedule.next_run_at);
    const pipeline = details.body.last_pipeline;
    expect(Object.keys(pipeline)).toEqual(['id', 'iid', 'project_id', 'sha', 'ref', 'status', 'source', 'created_at', 'updated_at', 'web_url']);
    expect(pipeline).toMatchObject({ project_id: app.project.id, sha: null, ref: 'main', status: 'created', source: 'scheduled' });
    expect(pipeline.web_url).toBe(`http://localhost/test-group/test-project/-/pipelines/${pipeline.id}`);
    const row = await app.kernel.database.row(app.kernel.database.from(PipelineEntity).where('id', pipeline.id));
    expect(row!.userId).toBe(app.users.developer.id);
  });

  it('numbers pipelines per project', async () => {
    const projectId = await newProject(app, 'numbered');
    const schedule = await createSchedule(app, 'developer', {}, projectId);
    for (let run = 0; run < 3; run++) await app.post(`${projectSchedulesPath(projectId)}/${schedule.id}/play`, undefined, { token: 'developer' });
    const list = await app.get(`${projectSchedulesPath(projectId)}/${schedule.id}/pipelines`, { token: 'developer' });
    expect(list.body.map((pipeline: { iid: number }) => pipeline.iid)).toEqual([1, 2, 3]);
  });

  it('needs Developer: 403 for Reporters, 404 where schedules are hidden, 401 without a token', async () => {
    const schedule = await createSchedule(app, 'developer');
    const play = `${schedulesPath(app)}/${schedule.id}/play`;
    expect(await app.post(play, undefined, { token: 'reporter' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await app.post(play, undefined, { token: 'nonMember' })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await app.post(play, undefined)).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    const hidden = await newProject(app, 'hidden-play', { public_jobs: false });
    const hiddenSchedule = await createSchedule(app, 'developer', {}, hidden);
    expect(await app.post(`${projectSchedulesPath(hidden)}/${hiddenSchedule.id}/play`, undefined, { token: 'guest' })).toMatchObject({
      status: 404,
      body: { message: '404 Pipeline Schedule Not Found' },
    });
  });
});

describe('GET .../pipelines', () => {
  let path: string;
  let seeded: number[];

  /** Pipelines with known statuses, refs and times: [status, ref, tag, minute of 2024-01-01 12:MM]. */
  const ROWS: [string, string, boolean, number][] = [
    ['success', 'main', false, 0],
    ['running', 'main', false, 10],
    ['pending', 'feature', false, 20],
    ['failed', 'v1.0', true, 30],
    ['canceled', 'v1.0', true, 40],
    ['created', 'main', false, 50],
  ];

  beforeAll(async () => {
    const projectId = await newProject(app, 'pipelines-list');
    const schedule = await createSchedule(app, 'developer', {}, projectId);
    path = `${projectSchedulesPath(projectId)}/${schedule.id}/pipelines`;
    seeded = [];
    for (const [index, [status, ref, tag, minute]] of ROWS.entries()) {
      const at = new Date(Date.UTC(2024, 0, 1, 12, minute));
      const row = { projectId, iid: 100 + index, pipelineScheduleId: schedule.id, status, source: 'scheduled', ref, tag, createdAt: at, updatedAt: at };
      seeded.push(await app.kernel.database.insert(PipelineEntity, row));
    }
  });

  it('lists the schedule pipelines oldest first by default, newest first with sort=desc, paginated', async () => {
    const asc = await app.get(path, { token: 'reporter' });
    expect(asc.status).toBe(200);
    expect(ids(asc)).toEqual(seeded);
    expect(asc.headers.get('x-total')).toBe('6');
    expect(ids(await app.get(path, { token: 'reporter', query: { sort: 'desc' } }))).toEqual([...seeded].reverse());
    const second = await app.get(path, { token: 'reporter', query: { per_page: 4, page: 2 } });
    expect(ids(second)).toEqual(seeded.slice(4));
    expect(second.headers.get('x-prev-page')).toBe('1');
  });

  it('filters by scope', async () => {
    expect(ids(await app.get(path, { token: 'developer', query: { scope: 'running' } }))).toEqual([seeded[1]]);
    expect(ids(await app.get(path, { token: 'developer', query: { scope: 'pending' } }))).toEqual([seeded[2]]);
    expect(ids(await app.get(path, { token: 'developer', query: { scope: 'finished' } }))).toEqual([seeded[0], seeded[3], seeded[4]]);
    // The latest pipeline of each branch, and of each tag.
    expect(ids(await app.get(path, { token: 'developer', query: { scope: 'branches' } }))).toEqual([seeded[2], seeded[5]]);
    expect(ids(await app.get(path, { token: 'developer', query: { scope: 'tags' } }))).toEqual([seeded[4]]);
  });

  it('filters by status and by creation and update times, bounds included', async () => {
    expect(ids(await app.get(path, { token: 'developer', query: { status: 'failed' } }))).toEqual([seeded[3]]);
    expect(ids(await app.get(path, { token: 'developer', query: { updated_after: '2024-01-01T12:40:00Z' } }))).toEqual([seeded[4], seeded[5]]);
    expect(ids(await app.get(path, { token: 'developer', query: { updated_before: '2024-01-01T12:10:00Z' } }))).toEqual([seeded[0], seeded[1]]);
    expect(ids(await app.get(path, { token: 'developer', query: { created_after: '2024-01-01T12:15:00Z', created_before: '2024-01-01T12:30:00Z' } }))).toEqual([
      seeded[2],
      seeded[3],
    ]);
    expect(ids(await app.get(path, { token: 'developer', query: { scope: 'finished', status: 'success' } }))).toEqual([seeded[0]]);
  });

  it('answers Grape errors for values outside the lists and bad times', async () => {
    expect(await app.get(path, { token: 'developer', query: { scope: 'all' } })).toMatchObject({
      status: 400,
      body: { error: 'scope does not have a valid value' },
    });
    expect(await app.get(path, { token: 'developer', query: { status: 'done' } })).toMatchObject({
      status: 400,
      body: { error: 'status does not have a valid value' },
    });
    expect(await app.get(path, { token: 'developer', query: { sort: 'up' } })).toMatchObject({
      status: 400,
      body: { error: 'sort does not have a valid value' },
    });
    expect(await app.get(path, { token: 'developer', query: { updated_before: 'yesterday' } })).toMatchObject({
      status: 400,
      body: { error: 'updated_before is invalid' },
    });
  });

  it('answers 404 for a missing schedule and to outsiders', async () => {
    expect(await app.get(`${schedulesPath(app)}/999999/pipelines`, { token: 'developer' })).toMatchObject({
      status: 404,
      body: { message: '404 Pipeline Schedule Not Found' },
    });
    expect(await app.get(path, { token: 'nonMember' })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await app.get(path)).toMatchObject({ status: 401 });
  });
});

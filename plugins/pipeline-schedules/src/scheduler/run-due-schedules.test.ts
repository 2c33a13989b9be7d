import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PipelineEntity } from '../entities/pipeline.js';
import { PipelineIidEntity } from '../entities/pipeline-iid.js';
import { PipelineScheduleEntity } from '../entities/pipeline-schedule.js';
import { PipelineScheduleInputEntity } from '../entities/pipeline-schedule-input.js';
import { PipelineScheduleVariableEntity } from '../entities/pipeline-schedule-variable.js';
import { createSchedule, makeDue, newProject, projectSchedulesPath, schedulePlugins, setScheduleLimit } from '../testing/schedule-fixtures.js';
import { TICK_JOB } from './run-due-schedules.js';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ plugins: schedulePlugins() });
  await setScheduleLimit(app, 0);
});
afterAll(() => app?.close());

const database = () => app.kernel.database;
const pipelinesOf = (scheduleId: number) => database().rows(database().from(PipelineEntity).where('pipelineScheduleId', scheduleId).orderBy('id'));
const scheduleRow = async (scheduleId: number) => (await database().row(database().from(PipelineScheduleEntity).where('id', scheduleId)))!;
const tick = () => app.kernel.jobs.run(TICK_JOB);

describe('the pipeline-schedules:tick job', () => {
  it('fires a due schedule once, as its owner, and moves next_run_at to the next occurrence', async () => {
    const projectId = await newProject(app, 'ticking');
    const schedule = await createSchedule(app, 'maintainer', { cron: '*/5 * * * *' }, projectId);
    await makeDue(app, schedule.id);
    const before = Date.now();
    await tick();
    const [pipeline, ...others] = await pipelinesOf(schedule.id);
    expect(others).toEqual([]);
    expect(pipeline).toMatchObject({ projectId, iid: 1, status: 'created', source: 'scheduled', ref: 'main', userId: app.users.maintainer.id });
    const nextRun = Date.parse((await app.get(`${projectSchedulesPath(projectId)}/${schedule.id}`, { token: 'maintainer' })).body.next_run_at);
    expect(nextRun).toBeGreaterThan(before);
    expect(nextRun).toBeLessThanOrEqual(before + 5 * 60_000);
    expect(new Date(nextRun).getUTCMinutes() % 5).toBe(0);

    await tick();
    expect(await pipelinesOf(schedule.id)).toHaveLength(1);
  });

  it('fires again on the next due run, and shows the newest pipeline as last_pipeline', async () => {
    const schedule = await createSchedule(app, 'developer', { cron: '0 * * * *' });
    await makeDue(app, schedule.id, 120);
    await tick();
    await makeDue(app, schedule.id, 60);
    await tick();
    const pipelines = await pipelinesOf(schedule.id);
    expect(pipelines).toHaveLength(2);
    const details = await app.get(`/api/v4/projects/${app.project.id}/pipeline_schedules/${schedule.id}`, { token: 'developer' });
    expect(details.body.last_pipeline.id).toBe(pipelines[1].id);
  });

  it('numbers a due run after a play, lists both pipelines, and moves next_run_at on', async () => {
    const projectId = await newProject(app, 'played-then-due');
    const schedule = await createSchedule(app, 'maintainer', { cron: '30 1 * * *', cron_timezone: 'Europe/Berlin' }, projectId);
    const path = `${projectSchedulesPath(projectId)}/${schedule.id}`;
    expect((await app.post(`${path}/play`, undefined, { token: 'developer' })).status).toBe(201);
    await makeDue(app, schedule.id);
    await tick();
    await tick();
    const pipelines = (await app.get(`${path}/pipelines`, { token: 'developer' })).body as { id: number; iid: number; [key: string]: unknown }[];
    expect(pipelines.map((pipeline) => [pipeline.iid, pipeline.source, pipeline.ref, pipeline.status])).toEqual([
      [1, 'scheduled', 'main', 'created'],
      [2, 'scheduled', 'main', 'created'],
    ]);
    expect(pipelines[1]!.web_url).toBe(`http://localhost/test-group/played-then-due/-/pipelines/${pipelines[1]!.id}`);
    const shown = (await app.get(path, { token: 'developer' })).body;
    expect(shown.last_pipeline).toMatchObject({ id: pipelines[1]!.id, status: 'created' });
    expect(Date.parse(shown.next_run_at)).toBeGreaterThan(Date.now());
  });

  it('leaves inactive schedules and schedules not yet due alone', async () => {
    const inactive = await createSchedule(app, 'developer', { active: false });
    const future = await createSchedule(app, 'developer');
    await makeDue(app, inactive.id);
    const untouched = await scheduleRow(future.id);
    await tick();
    expect(await pipelinesOf(inactive.id)).toEqual([]);
    expect(await pipelinesOf(future.id)).toEqual([]);
    expect(await scheduleRow(future.id)).toEqual(untouched);
  });

  it('fires every due schedule of every project in one tick', async () => {
    const projectId = await newProject(app, 'busy');
    const schedules = [];
    for (let index = 0; index < 5; index++) schedules.push(await createSchedule(app, 'developer', {}, index % 2 === 0 ? projectId : app.project.id));
    for (const schedule of schedules) await makeDue(app, schedule.id);
    await tick();
    for (const schedule of schedules) expect(await pipelinesOf(schedule.id)).toHaveLength(1);
  });

  it('moves on without a pipeline when the owner may no longer start pipelines', async () => {
    const skippedRun = async (scheduleId: number) => {
      const before = Date.now();
      await makeDue(app, scheduleId);
      await tick();
      expect(await pipelinesOf(scheduleId)).toEqual([]);
      expect((await scheduleRow(scheduleId)).nextRunAt.getTime()).toBeGreaterThan(before);
    };
    const projectId = await newProject(app, 'frozen');
    const archived = await createSchedule(app, 'developer', {}, projectId);
    expect((await app.post(`/api/v4/projects/${projectId}/archive`, undefined, { token: 'owner' })).status).toBe(201);
    await skippedRun(archived.id);

    const blockedOwner = await createSchedule(app, 'developer');
    expect((await app.post(`/api/v4/users/${app.users.developer.id}/block`, undefined, { token: 'admin' })).status).toBe(201);
    try {
      await skippedRun(blockedOwner.id);
    } finally {
      await app.post(`/api/v4/users/${app.users.developer.id}/unblock`, undefined, { token: 'admin' });
    }
  });

  it('keeps pipelines when their schedule is deleted', async () => {
    const schedule = await createSchedule(app, 'developer');
    await makeDue(app, schedule.id);
    await tick();
    const [pipeline] = await pipelinesOf(schedule.id);
    expect((await app.delete(`/api/v4/projects/${app.project.id}/pipeline_schedules/${schedule.id}`, { token: 'developer' })).status).toBe(200);
    expect(await database().row(database().from(PipelineEntity).where('id', pipeline!.id))).toMatchObject({ id: pipeline!.id, pipelineScheduleId: null });
  });
});

describe('deleting a project', () => {
  it('removes its schedules with their variables and inputs, and its pipelines', async () => {
    const projectId = await newProject(app, 'doomed');
    const schedule = await createSchedule(app, 'developer', { inputs: [{ name: 'a', value: 1 }] }, projectId);
    await app.post(`${projectSchedulesPath(projectId)}/${schedule.id}/variables`, { key: 'K', value: 'v' }, { token: 'developer' });
    await app.post(`${projectSchedulesPath(projectId)}/${schedule.id}/play`, undefined, { token: 'developer' });
    const kept = await createSchedule(app, 'developer');

    expect((await app.delete(`/api/v4/projects/${projectId}`, { token: 'owner' })).status).toBe(202);
    const db = database();
    expect(await db.rows(db.from(PipelineScheduleEntity).where('projectId', projectId))).toEqual([]);
    expect(await db.rows(db.from(PipelineScheduleVariableEntity).where('pipelineScheduleId', schedule.id))).toEqual([]);
    expect(await db.rows(db.from(PipelineScheduleInputEntity).where('pipelineScheduleId', schedule.id))).toEqual([]);
    expect(await db.rows(db.from(PipelineEntity).where('projectId', projectId))).toEqual([]);
    expect(await db.rows(db.from(PipelineIidEntity).where('projectId', projectId))).toEqual([]);
    expect(await db.row(db.from(PipelineScheduleEntity).where('id', kept.id))).toBeDefined();
  });
});

/** Shared by this plugin's tests: the plugin list and small request helpers. */
import { planLimitsPlugin } from '@forgekit/plugin-plan-limits';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { PipelineScheduleEntity } from '../entities/pipeline-schedule.js';
import { pipelineSchedulesPlugin } from '../plugin.js';

export const schedulePlugins = () => [planLimitsPlugin, pipelineSchedulesPlugin];

export const NIGHTLY = { description: 'Nightly build', ref: 'main', cron: '0 1 * * *' } as const;

export const schedulesPath = (app: TestApp) => projectSchedulesPath(app.project.id);

/** Creates a schedule through the API and returns its body; fails the test on any other status. */
export async function createSchedule(app: TestApp, token = 'developer', body: Record<string, unknown> = {}, projectId = app.project.id) {
  const res = await app.post(projectSchedulesPath(projectId), { ...NIGHTLY, ...body }, { token });
  if (res.status !== 201) throw new Error(`creating a schedule gave ${res.status} ${res.text}`);
  return res.body as { id: number; next_run_at: string; [key: string]: unknown };
}

/** Moves a schedule's next run into the past, so the next tick finds it due. */
export async function makeDue(app: Pick<TestApp, 'kernel'>, scheduleId: number, secondsAgo = 60) {
  await app.kernel.database.update(PipelineScheduleEntity, { id: scheduleId }, { nextRunAt: new Date(Date.now() - secondsAgo * 1000) });
}

/** A fresh private project in the seeded group, so every role keeps its level there. */
export async function newProject(app: TestApp, path: string, settings: Record<string, unknown> = {}): Promise<number> {
  const res = await app.post('/api/v4/projects', { name: path, path, namespace_id: app.group.id, ...settings }, { token: 'owner' });
  if (res.status !== 201) throw new Error(`creating a project gave ${res.status} ${res.text}`);
  return res.body.id as number;
}

export const projectSchedulesPath = (projectId: number) => `/api/v4/projects/${projectId}/pipeline_schedules`;

/** Sets the `ci_pipeline_schedules` plan limit (0: none) through the admin API. */
export async function setScheduleLimit(app: TestApp, value: number) {
  const res = await app.put('/api/v4/application/plan_limits', { plan_name: 'default', ci_pipeline_schedules: value }, { token: 'admin' });
  if (res.status !== 200) throw new Error(`setting the plan limit gave ${res.status} ${res.text}`);
}

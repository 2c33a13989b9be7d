import { planLimitsPlugin } from '@forgekit/plugin-plan-limits';
import { createTestApp } from '@forgekit/plugin-core/testing';
import { describe, expect, it } from 'vitest';
import { pipelineSchedulesPlugin } from './plugin.js';
import { NIGHTLY } from './testing/schedule-fixtures.js';

describe('the pipeline-schedules plugin config', () => {
  it('reports next_run_at as the scheduler tick that fires the run when workerCron is set', async () => {
    const app = await createTestApp({
      plugins: [planLimitsPlugin, pipelineSchedulesPlugin],
      config: { plugins: { 'pipeline-schedules': { workerCron: '3-59/10 * * * *' } } },
    });
    try {
      const res = await app.post(`/api/v4/projects/${app.project.id}/pipeline_schedules`, { ...NIGHTLY, cron: '0 4 * * *' }, { token: 'developer' });
      expect(res.status).toBe(201);
      expect(res.body.next_run_at).toMatch(/T04:03:00\.000Z$/);
    } finally {
      await app.close();
    }
  });

  it('refuses to boot with an invalid workerCron', async () => {
    await expect(
      createTestApp({ plugins: [planLimitsPlugin, pipelineSchedulesPlugin], config: { plugins: { 'pipeline-schedules': { workerCron: 'often' } } } }),
    ).rejects.toThrow("Plugin 'pipeline-schedules' config is invalid at 'workerCron': workerCron is not a valid cron expression");
  });

  it('needs the plan-limits plugin', async () => {
    await expect(createTestApp({ plugins: [pipelineSchedulesPlugin] })).rejects.toThrow(/plan-limits/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { planLimitsPlugin } from '../plugin.js';
import { planLimitsServiceRef, type PlanLimitsService } from '../contracts.js';

describe('plan limits service', () => {
  let app: TestApp;
  let limits: PlanLimitsService;
  beforeAll(async () => {
    app = await createTestApp({ plugins: [planLimitsPlugin], seed: false });
    limits = app.kernel.resolve(planLimitsServiceRef);
  });
  afterAll(() => app?.close());

  it('gives defaults for public and internal limits', async () => {
    expect(await limits.get('ci_pipeline_schedules')).toBe(10);
    expect(await limits.get('project_ci_variables')).toBe(8000);
    expect(await limits.get('group_ci_variables', 'ultimate')).toBe(30000);
  });

  it('sees a change made in this process at once', async () => {
    expect(await limits.get('ci_instance_level_variables')).toBe(25);
    await app.kernel.resolve(planLimitsServiceRef).set('ci_instance_level_variables', 3);
    expect(await limits.get('ci_instance_level_variables')).toBe(3);
    expect(await limits.get('ci_instance_level_variables', 'premium')).toBe(25);
  });

  it('treats 0 and negative limits as no limit', async () => {
    await app.kernel.resolve(planLimitsServiceRef).set('project_feature_flags', 0);
    expect(await limits.exceeded('project_feature_flags', 1_000_000)).toBe(false);
    await app.kernel.resolve(planLimitsServiceRef).set('project_feature_flags', -1);
    expect(await limits.exceeded('project_feature_flags', 1_000_000)).toBe(false);
  });

  it('reports a limit as exceeded once the count reaches it', async () => {
    await app.kernel.resolve(planLimitsServiceRef).set('project_hooks', 2);
    expect(await limits.exceeded('project_hooks', 1)).toBe(false);
    expect(await limits.exceeded('project_hooks', 2)).toBe(true);
    expect(await limits.exceeded('project_hooks', 3)).toBe(true);
  });

  it("gives GitLab's text for a reached limit, and null within it", async () => {
    await app.kernel.resolve(planLimitsServiceRef).set('project_feature_flags', 3, 'premium');
    expect(await limits.exceededMessage('project_feature_flags', 2, 'premium')).toBeNull();
    expect(await limits.exceededMessage('project_feature_flags', 3, 'premium')).toBe('Maximum number of project feature flags (3) exceeded');
    expect(await limits.exceededMessage('ci_pipeline_schedules', 10)).toBe('Maximum number of ci pipeline schedules (10) exceeded');
    await app.kernel.resolve(planLimitsServiceRef).set('ci_pipeline_schedules', 0, 'free');
    expect(await limits.exceededMessage('ci_pipeline_schedules', 1_000, 'free')).toBeNull();
  });

  it('refuses unknown limits and plans', async () => {
    await expect(limits.get('no_such_limit')).rejects.toThrow("The limit 'no_such_limit' is undefined");
    await expect(limits.exceeded('ci_pipeline_size', 1, 'platinum')).rejects.toThrow("The plan 'platinum' does not exist");
    await expect(app.kernel.resolve(planLimitsServiceRef).set('no_such_limit', 1)).rejects.toThrow('undefined');
  });
});

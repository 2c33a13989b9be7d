import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { planLimitsPlugin } from '../plugin.js';
import { PUBLIC_LIMITS } from './limit-catalogue.js';

const PATH = '/api/v4/application/plan_limits';

describe('plan limits API', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ plugins: [planLimitsPlugin] });
  });
  afterAll(() => app?.close());

  describe('GET /application/plan_limits', () => {
    it('shows every limit of the default plan with its default value, in order', async () => {
      const res = await app.get(PATH, { token: 'admin' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(PUBLIC_LIMITS);
      expect(Object.keys(res.body)).toEqual(Object.keys(PUBLIC_LIMITS));
      expect(res.body.ci_instance_level_variables).toBe(25);
      expect(res.body.generic_packages_max_file_size).toBe(5368709120);
      expect(res.body.pipeline_hierarchy_size).toBe(1000);
    });

    it('does not show internal limits', async () => {
      const res = await app.get(PATH, { token: 'admin' });
      expect(res.body).not.toHaveProperty('project_ci_variables');
    });

    it('shows another plan', async () => {
      const res = await app.get(PATH, { token: 'admin', query: { plan_name: 'ultimate' } });
      expect(res.status).toBe(200);
      expect(res.body.storage_size_limit).toBe(15000);
    });

    it('rejects an unknown plan name', async () => {
      const res = await app.get(PATH, { token: 'admin', query: { plan_name: 'my-plan' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'plan_name does not have a valid value' });
    });

    it('answers 403 to a non-admin and 401 to an anonymous caller', async () => {
      const forbidden = await app.get(PATH, { token: 'owner' });
      expect(forbidden.status).toBe(403);
      expect(forbidden.body).toEqual({ message: '403 Forbidden' });
      const anonymous = await app.get(PATH);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ message: '401 Unauthorized' });
    });
  });

  describe('PUT /application/plan_limits', () => {
    it('changes several limits and keeps the others', async () => {
      const res = await app.put(PATH, { plan_name: 'default', conan_max_file_size: 10, ci_pipeline_schedules: 3, web_hook_calls: 120 }, { token: 'admin' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...PUBLIC_LIMITS, conan_max_file_size: 10, ci_pipeline_schedules: 3, web_hook_calls: 120 });

      const again = await app.get(PATH, { token: 'admin' });
      expect(again.body.conan_max_file_size).toBe(10);
      expect(again.body.maven_max_file_size).toBe(PUBLIC_LIMITS.maven_max_file_size);
    });

    it('changes a limit again and stores large values', async () => {
      await app.put(PATH, { plan_name: 'default', conan_max_file_size: 11 }, { token: 'admin' });
      const res = await app.put(PATH, { plan_name: 'default', conan_max_file_size: '8589934592' }, { token: 'admin', as: 'form' });
      expect(res.status).toBe(200);
      expect(res.body.conan_max_file_size).toBe(8589934592);
    });

    it('keeps plans apart', async () => {
      await app.put(PATH, { plan_name: 'premium', ci_needs_size_limit: 7 }, { token: 'admin' });
      expect((await app.get(PATH, { token: 'admin', query: { plan_name: 'premium' } })).body.ci_needs_size_limit).toBe(7);
      expect((await app.get(PATH, { token: 'admin' })).body.ci_needs_size_limit).toBe(50);
    });

    it('ignores undeclared limits and limits sent without a value', async () => {
      const res = await app.put(PATH, { plan_name: 'free', golang_max_file_size: 999, project_ci_variables: 1, dotenv_size: null }, { token: 'admin' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(PUBLIC_LIMITS);
    });

    it('accepts negative values where GitLab does', async () => {
      const res = await app.put(PATH, { plan_name: 'gold', ci_pipeline_size: -1 }, { token: 'admin' });
      expect(res.status).toBe(200);
      expect(res.body.ci_pipeline_size).toBe(-1);
    });

    it('rejects negative notification and enforcement limits, changing nothing', async () => {
      const res = await app.put(PATH, { plan_name: 'silver', notification_limit: -1, enforcement_limit: -5, dotenv_size: 1 }, { token: 'admin' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: { notification_limit: ['must be greater than or equal to 0'], enforcement_limit: ['must be greater than or equal to 0'] },
      });
      expect((await app.get(PATH, { token: 'admin', query: { plan_name: 'silver' } })).body.dotenv_size).toBe(5120);
    });

    it('requires plan_name', async () => {
      const res = await app.put(PATH, { conan_max_file_size: 0 }, { token: 'admin' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'plan_name is missing, plan_name does not have a valid value' });
    });

    it('rejects an unknown plan name', async () => {
      const res = await app.put(PATH, { plan_name: 'my-plan' }, { token: 'admin' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'plan_name does not have a valid value' });
    });

    it('rejects values that are not integers, naming each', async () => {
      const res = await app.put(
        PATH,
        { plan_name: 'default', conan_max_file_size: 'a', npm_max_file_size: '1.5', helm_max_file_size: 'b' },
        { token: 'admin' },
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'conan_max_file_size is invalid, helm_max_file_size is invalid, npm_max_file_size is invalid' });
    });

    it('answers 403 to a non-admin before looking at the input, and 401 to an anonymous caller', async () => {
      const forbidden = await app.put(PATH, {}, { token: 'maintainer' });
      expect(forbidden.status).toBe(403);
      expect(forbidden.body).toEqual({ message: '403 Forbidden' });
      const anonymous = await app.put(PATH, { plan_name: 'default' });
      expect(anonymous.status).toBe(401);
    });
  });
});

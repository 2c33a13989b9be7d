import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { planLimitsPlugin } from '@forgekit/plugin-plan-limits';
import { featureFlagsPlugin } from '../plugin.js';
import { featureFlagsClientRef } from '../contracts.js';
import { FeatureFlagEntity } from '../entities/feature-flag.js';
import { FeatureFlagInternalIdEntity } from '../entities/feature-flag-internal-id.js';
import { FeatureFlagStrategyEntity } from '../entities/feature-flag-strategy.js';
import { FeatureFlagUserListEntity } from '../entities/feature-flag-user-list.js';
import { FeatureFlagsClientEntity } from '../entities/feature-flags-client.js';

describe('Unleash client API', () => {
  let app: TestApp;
  let counter = 0;

  beforeAll(async () => {
    app = await createTestApp({ plugins: [planLimitsPlugin, featureFlagsPlugin] });
  });
  afterAll(() => app?.close());

  const clients = () => app.kernel.resolve(featureFlagsClientRef);

  /** A project of its own with its instance id. */
  async function freshProject() {
    const res = await app.post(
      '/api/v4/projects',
      { name: `Unleash ${++counter}`, path: `unleash-${counter}`, namespace_id: app.group.id },
      { token: 'owner' },
    );
    expect(res.status).toBe(201);
    const id = res.body.id as number;
    return { id, token: await clients().tokenFor(id), unleash: `/api/v4/feature_flags/unleash/${id}`, flags: `/api/v4/projects/${id}/feature_flags` };
  }

  async function createFlag(flags: string, body: Record<string, unknown>) {
    const res = await app.post(flags, body, { token: 'developer' });
    expect(res.status).toBe(201);
    return res.body;
  }

  const features = (url: string, token: string, appName?: string) =>
    app.get(url, { headers: { 'UNLEASH-INSTANCEID': token, ...(appName === undefined ? {} : { 'UNLEASH-APPNAME': appName }) } });

  describe('instance id', () => {
    it('is created on first use with a neutral prefix, stays the same, and can be reset', async () => {
      const project = await freshProject();
      expect(project.token).toMatch(/^fkffct-[A-Za-z0-9]{20}$/);
      expect(await clients().tokenFor(project.id)).toBe(project.token);
      const reset = await clients().resetToken(project.id);
      expect(reset).not.toBe(project.token);
      expect(await clients().tokenFor(project.id)).toBe(reset);
      expect((await features(`${project.unleash}/client/features`, project.token, 'production')).status).toBe(401);
      expect((await features(`${project.unleash}/client/features`, reset, 'production')).status).toBe(200);
    });

    it('can be reset before its first use, and keeps its creation time when reset again', async () => {
      const created = await app.post(
        '/api/v4/projects',
        { name: 'Unleash reset first', path: 'unleash-reset-first', namespace_id: app.group.id },
        { token: 'owner' },
      );
      expect(created.status).toBe(201);
      const projectId = created.body.id as number;
      const first = await clients().resetToken(projectId);
      expect(first).toMatch(/^fkffct-[A-Za-z0-9]{20}$/);
      expect(await clients().tokenFor(projectId)).toBe(first);
      const { database } = app.kernel;
      const clientRow = () => database.row(database.from(FeatureFlagsClientEntity).where('projectId', projectId));
      const before = (await clientRow())!;
      const second = await clients().resetToken(projectId);
      expect(await clientRow()).toEqual({ ...before, token: second, updatedAt: expect.any(Date) });
      expect(await clients().verify(projectId, first)).toBe(false);
      expect(await clients().verify(projectId, second)).toBe(true);
      await expect(clients().resetToken(987654)).rejects.toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    });

    it('is refused for an unknown project', async () => {
      await expect(clients().tokenFor(987654)).rejects.toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    });

    it('gives the SDK URL of the project', () => {
      expect(clients().apiUrl(42)).toBe('http://localhost/api/v4/feature_flags/unleash/42');
    });
  });

  describe('authentication', () => {
    it('accepts the instance id as a header or as the instance_id param', async () => {
      const project = await freshProject();
      expect((await features(`${project.unleash}/client/features`, project.token)).status).toBe(200);
      expect((await app.get(`${project.unleash}/client/features`, { query: { instance_id: project.token } })).status).toBe(200);
    });

    it("answers 401 for a missing or wrong id, another project's id, an unknown project or a path", async () => {
      const project = await freshProject();
      const other = await freshProject();
      const unauthorized = { status: 401, body: { message: '401 Unauthorized' } };
      expect(await app.get(`${project.unleash}/client/features`)).toMatchObject(unauthorized);
      expect(await features(`${project.unleash}/client/features`, 'fkffct-wrong')).toMatchObject(unauthorized);
      expect(await features(`${project.unleash}/client/features`, other.token)).toMatchObject(unauthorized);
      expect(await features('/api/v4/feature_flags/unleash/-5000/client/features', project.token)).toMatchObject(unauthorized);
      expect(await features(`/api/v4/feature_flags/unleash/${encodeURIComponent('test-group/unleash-1')}/client/features`, project.token)).toMatchObject(
        unauthorized,
      );
    });

    it('lets the header win over the param', async () => {
      const project = await freshProject();
      const res = await app.get(`${project.unleash}/client/features`, {
        query: { instance_id: project.token },
        headers: { 'UNLEASH-INSTANCEID': 'fkffct-wrong' },
      });
      expect(res.status).toBe(401);
    });

    it('needs no user token and ignores a bad one', async () => {
      const project = await freshProject();
      const res = await app.get(`${project.unleash}/client/features`, { token: 'fkpat-not-a-token', headers: { 'UNLEASH-INSTANCEID': project.token } });
      expect(res.status).toBe(200);
    });
  });

  describe('features', () => {
    it('lists nothing without an app name', async () => {
      const project = await freshProject();
      await createFlag(project.flags, { name: 'everywhere', strategies: [{ name: 'default', parameters: {}, scopes: [{ environment_scope: '*' }] }] });
      expect((await features(`${project.unleash}/client/features`, project.token)).body).toEqual({ version: 1, features: [] });
      expect((await features(`${project.unleash}/client/features`, project.token, ' ')).body).toEqual({ version: 1, features: [] });
    });

    it('lists flags by id with the strategies scoped to the environment', async () => {
      const project = await freshProject();
      await createFlag(project.flags, {
        name: 'zeta',
        description: 'described',
        strategies: [
          { name: 'userWithId', parameters: { userIds: 'user2,user8' }, scopes: [{ environment_scope: 'production' }] },
          { name: 'default', parameters: {}, scopes: [{ environment_scope: 'staging' }] },
        ],
      });
      await createFlag(project.flags, {
        name: 'alpha',
        active: false,
        strategies: [{ name: 'default', parameters: {}, scopes: [{ environment_scope: 'production' }, { environment_scope: '*' }] }],
      });
      await createFlag(project.flags, { name: 'staging-only', strategies: [{ name: 'default', parameters: {}, scopes: [{ environment_scope: 'staging' }] }] });
      await createFlag(project.flags, { name: 'no-strategies' });
      await createFlag(project.flags, { name: 'unscoped', strategies: [{ name: 'default', parameters: {} }] });

      const res = await features(`${project.unleash}/client/features`, project.token, 'production');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        version: 1,
        features: [
          { name: 'zeta', description: 'described', enabled: true, strategies: [{ name: 'userWithId', parameters: { userIds: 'user2,user8' } }] },
          { name: 'alpha', enabled: false, strategies: [{ name: 'default', parameters: {} }] },
        ],
      });
      expect(Object.keys(res.body.features[0])).toEqual(['name', 'description', 'enabled', 'strategies']);
    });

    it('matches `*`, wildcard scopes and exact names', async () => {
      const project = await freshProject();
      await createFlag(project.flags, {
        name: 'review-apps',
        strategies: [
          { name: 'userWithId', parameters: { userIds: 'user2' }, scopes: [{ environment_scope: '*' }] },
          { name: 'default', parameters: {}, scopes: [{ environment_scope: 'review/*' }] },
          { name: 'gradualRolloutUserId', parameters: { groupId: 'default', percentage: '15' }, scopes: [{ environment_scope: 'review/patch-1' }] },
          {
            name: 'flexibleRollout',
            parameters: { groupId: 'default', rollout: '30', stickiness: 'default' },
            scopes: [{ environment_scope: 'Review/patch-1' }],
          },
        ],
      });
      const names = async (environment: string) =>
        (await features(`${project.unleash}/client/features`, project.token, environment)).body.features[0].strategies.map((s: { name: string }) => s.name);
      expect(await names('review/patch-1')).toEqual(['userWithId', 'default', 'gradualRolloutUserId']);
      expect(await names('review/other')).toEqual(['userWithId', 'default']);
      expect(await names('production')).toEqual(['userWithId']);
      expect(await names('Review/patch-1')).toEqual(['userWithId', 'flexibleRollout']);
    });

    it("sends a user list strategy as userWithId with the list's ids", async () => {
      const project = await freshProject();
      const list = await app.post(
        `/api/v4/projects/${project.id}/feature_flags_user_lists`,
        { name: 'My List', user_xids: 'user1,user2' },
        { token: 'developer' },
      );
      await createFlag(project.flags, {
        name: 'listed',
        strategies: [{ name: 'serviceUserList', parameters: {}, user_list_id: list.body.id, scopes: [{ environment_scope: 'production' }] }],
      });
      const res = await features(`${project.unleash}/client/features`, project.token, 'production');
      expect(res.body.features).toEqual([{ name: 'listed', enabled: true, strategies: [{ name: 'userWithId', parameters: { userIds: 'user1,user2' } }] }]);
      await app.put(`/api/v4/projects/${project.id}/feature_flags_user_lists/${list.body.iid}`, { user_xids: 'user3' }, { token: 'developer' });
      const updated = await features(`${project.unleash}/client/features`, project.token, 'production');
      expect(updated.body.features[0].strategies).toEqual([{ name: 'userWithId', parameters: { userIds: 'user3' } }]);
    });

    it('serves the same document on the v2 path and reads app_name as a param', async () => {
      const project = await freshProject();
      await createFlag(project.flags, { name: 'sandboxed', strategies: [{ name: 'default', parameters: {}, scopes: [{ environment_scope: 'sandbox' }] }] });
      const v2 = await app.get(`${project.unleash}/features`, { query: { instance_id: project.token, app_name: 'sandbox' } });
      expect(v2.status).toBe(200);
      expect(v2.body).toEqual({ version: 1, features: [{ name: 'sandboxed', enabled: true, strategies: [{ name: 'default', parameters: {} }] }] });
      expect((await features(`${project.unleash}/client/features`, project.token, 'sandbox')).body).toEqual(v2.body);
    });
  });

  describe('placeholders', () => {
    it('accepts register, metrics and the base path with the instance id, and 401s without it', async () => {
      const project = await freshProject();
      const headers = { 'UNLEASH-INSTANCEID': project.token };
      const register = await app.post(`${project.unleash}/client/register`, { appName: 'production', instanceId: 'x', strategies: [] }, { headers });
      expect(register.status).toBe(200);
      expect(register.body).toBe(200);
      expect((await app.post(`${project.unleash}/client/metrics`, { bucket: {} }, { headers })).status).toBe(200);
      expect((await app.get(project.unleash, { headers })).status).toBe(200);
      expect((await app.post(`${project.unleash}/client/register`, {})).status).toBe(401);
      expect((await app.post(`${project.unleash}/client/metrics`, {})).status).toBe(401);
      expect((await app.get(project.unleash)).status).toBe(401);
    });
  });

  describe('project deletion', () => {
    it("drops the project's flags, lists and instance id", async () => {
      const project = await freshProject();
      const list = await app.post(`/api/v4/projects/${project.id}/feature_flags_user_lists`, { name: 'gone', user_xids: 'u' }, { token: 'developer' });
      await createFlag(project.flags, {
        name: 'gone',
        strategies: [{ name: 'serviceUserList', parameters: {}, user_list_id: list.body.id, scopes: [{ environment_scope: '*' }] }],
      });
      expect((await app.delete(`/api/v4/projects/${project.id}`, { token: 'owner' })).status).toBe(202);
      const { database } = app.kernel;
      for (const entity of [FeatureFlagEntity, FeatureFlagUserListEntity, FeatureFlagsClientEntity, FeatureFlagInternalIdEntity]) {
        expect(await database.rows(database.from(entity).where('projectId', project.id))).toEqual([]);
      }
      expect(await database.rows(database.from(FeatureFlagStrategyEntity).where('userListId', list.body.id))).toEqual([]);
      expect((await features(`${project.unleash}/client/features`, project.token, 'production')).status).toBe(401);
    });
  });
});

import { once } from 'node:events';
import { AccessLevel } from '@gitbeaker/rest';
import { corePlugin } from '@forgekit/plugin-core';
import { featureFlagsClientRef, featureFlagsPlugin } from '@forgekit/plugin-feature-flags';
import { planLimitsPlugin } from '@forgekit/plugin-plan-limits';
import { InMemStorageProvider, Unleash, UnleashEvents } from 'unleash-client';
import { normalizedStrategyValue } from 'unleash-client/lib/strategy/util.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, failureOf, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';

/**
 * A team manages its flags with @gitbeaker/rest; its application reads them with the
 * real Unleash SDK pointed at the project's Unleash URL and instance id.
 */
describe('feature flags through @gitbeaker/rest and the unleash-client SDK', () => {
  let server: ListeningServer;
  let admin: Api;
  let dev: UserWithToken; // developer of the project
  let viewer: UserWithToken; // reporter of the project
  let projectId: number;
  const sdks: Unleash[] = [];

  /** Strategy options as gitbeaker sends them; parameters go as a JSON string, which keeps their camelCase keys. */
  const strategy = (name: string, parameters: Record<string, string>, environmentScope = 'production', extra: Record<string, unknown> = {}) => ({
    name,
    parameters: JSON.stringify(parameters),
    scopes: [{ environmentScope }],
    ...extra,
  });

  const createFlag = (name: string, strategies: object[], options: Record<string, unknown> = {}) =>
    dev.api.FeatureFlags.create(projectId, name, 'new_version_flag', { strategies, ...options } as never);

  /** A started SDK for one environment, resolved on its first successful fetch. */
  async function startSdk(environment: string): Promise<Unleash> {
    const clients = server.kernel.resolve(featureFlagsClientRef);
    const sdk = new Unleash({
      appName: environment,
      url: clients.apiUrl(projectId),
      instanceId: await clients.tokenFor(projectId),
      disableMetrics: true,
      refreshInterval: 60_000,
      storageProvider: new InMemStorageProvider(),
      skipInstanceCountWarning: true,
    });
    sdks.push(sdk);
    await once(sdk, UnleashEvents.Synchronized);
    return sdk;
  }

  /** Two user ids on either side of 50 by the SDK's own hashing for a group. */
  function splitUsers(groupId: string) {
    let inside: string | undefined;
    let outside: string | undefined;
    for (let i = 0; !(inside && outside); i++) {
      const userId = `user-${i}`;
      if (normalizedStrategyValue(userId, groupId) <= 50) inside ??= userId;
      else outside ??= userId;
    }
    return { inside: inside!, outside: outside! };
  }

  beforeAll(async () => {
    server = await startListeningServer([corePlugin, planLimitsPlugin, featureFlagsPlugin]);
    admin = clientFor(server, server.rootToken);
    [dev, viewer] = await Promise.all(['dana', 'vic'].map((name) => createUserWithToken(admin, server, name)));
    const project = await admin.Projects.create({ name: 'Shop', path: 'shop' });
    projectId = project.id;
    await admin.ProjectMembers.add(projectId, AccessLevel.DEVELOPER, { userId: dev.id });
    await admin.ProjectMembers.add(projectId, AccessLevel.REPORTER, { userId: viewer.id });
  });
  afterAll(async () => {
    for (const sdk of sdks) sdk.destroy();
    await server?.close();
  });

  it("manages flags and user lists with the client's own methods", async () => {
    const list = await dev.api.FeatureFlagUserLists.create(projectId, 'beta-testers', 'carol,dave');
    expect(list).toMatchObject({ iid: 1, name: 'beta-testers', user_xids: 'carol,dave', project_id: projectId });

    const flag = await createFlag('checkout-v2', [strategy('userWithId', { userIds: 'alice,bob' })], { description: 'New checkout' });
    expect(flag).toMatchObject({ name: 'checkout-v2', description: 'New checkout', active: true, version: 'new_version_flag', scopes: [] });
    expect(flag.strategies).toEqual([
      {
        id: expect.any(Number),
        name: 'userWithId',
        parameters: { userIds: 'alice,bob' },
        scopes: [{ id: expect.any(Number), environment_scope: 'production' }],
        user_list: null,
      },
    ]);

    const listed = await createFlag('beta-banner', [strategy('serviceUserList', {}, 'production', { userListId: list.id })]);
    expect(listed.strategies![0]).toMatchObject({ name: 'serviceUserList', parameters: {} });
    expect((listed.strategies![0] as unknown as { user_list: unknown }).user_list).toEqual({
      id: list.id,
      iid: 1,
      name: 'beta-testers',
      user_xids: 'carol,dave',
    });

    const edited = await dev.api.FeatureFlags.edit(projectId, 'checkout-v2', { description: 'Checkout, second try' });
    expect(edited.description).toBe('Checkout, second try');
    expect((await dev.api.FeatureFlags.show(projectId, 'checkout-v2')).strategies).toEqual(flag.strategies);
    expect((await dev.api.FeatureFlags.all(projectId)).map((f) => f.name)).toEqual(['beta-banner', 'checkout-v2']);
    expect(await dev.api.FeatureFlagUserLists.all(projectId, { search: 'beta' })).toHaveLength(1);
  });

  it("reports GitLab's errors to the client", async () => {
    expect(await failureOf(viewer.api.FeatureFlags.all(projectId))).toEqual({ status: 403, description: '403 Forbidden' });
    expect(await failureOf(createFlag('bad-rollout', [strategy('gradualRolloutUserId', { groupId: 'default', percentage: '150' })]))).toEqual({
      status: 400,
      description: JSON.stringify(['Strategies parameters percentage must be a string between 0 and 100 inclusive']),
    });
    expect(await failureOf(dev.api.FeatureFlags.show(projectId, 'missing'))).toEqual({ status: 404, description: '404 Not found' });
    expect(await failureOf(dev.api.FeatureFlagUserLists.remove(projectId, 1))).toEqual({
      status: 409,
      description: JSON.stringify(['User list is associated with a strategy']),
    });
  });

  it('lets the SDK evaluate user-id strategies, user lists and percentage rollouts', async () => {
    const half = splitUsers('halfrollout');
    const flexible = splitUsers('halfflexible');
    await createFlag('rollout-none', [strategy('gradualRolloutUserId', { groupId: 'none', percentage: '0' })]);
    await createFlag('rollout-all', [strategy('gradualRolloutUserId', { groupId: 'all', percentage: '100' })]);
    await createFlag('rollout-half', [strategy('gradualRolloutUserId', { groupId: 'halfrollout', percentage: '50' })]);
    await createFlag('flexible-half', [strategy('flexibleRollout', { groupId: 'halfflexible', rollout: '50', stickiness: 'userId' })]);
    await createFlag('staging-only', [strategy('default', {}, 'staging')]);
    await createFlag('switched-off', [strategy('default', {}, '*')], { active: false });

    const sdk = await startSdk('production');

    expect(sdk.isEnabled('checkout-v2', { userId: 'alice' })).toBe(true);
    expect(sdk.isEnabled('checkout-v2', { userId: 'mallory' })).toBe(false);
    expect(sdk.isEnabled('beta-banner', { userId: 'dave' })).toBe(true);
    expect(sdk.isEnabled('beta-banner', { userId: 'alice' })).toBe(false);

    expect(sdk.isEnabled('rollout-none', { userId: half.inside })).toBe(false);
    expect(sdk.isEnabled('rollout-all', { userId: half.outside })).toBe(true);
    expect(sdk.isEnabled('rollout-all', {})).toBe(false); // a user-id rollout needs a user id
    expect(sdk.isEnabled('rollout-half', { userId: half.inside })).toBe(true);
    expect(sdk.isEnabled('rollout-half', { userId: half.outside })).toBe(false);
    expect(sdk.isEnabled('flexible-half', { userId: flexible.inside })).toBe(true);
    expect(sdk.isEnabled('flexible-half', { userId: flexible.outside })).toBe(false);

    expect(sdk.getFeatureToggleDefinition('staging-only')).toBeUndefined();
    expect(sdk.isEnabled('switched-off')).toBe(false);
    expect(sdk.getFeatureToggleDefinition('switched-off')).toMatchObject({ enabled: false });
  });

  it('scopes what the SDK sees by its app name and follows changes made with the client', async () => {
    await dev.api.FeatureFlags.edit(projectId, 'switched-off', { active: true });
    await dev.api.FeatureFlags.edit(projectId, 'checkout-v2', { active: false } as never);
    const staging = await startSdk('staging');
    expect(staging.isEnabled('staging-only')).toBe(true);
    expect(staging.isEnabled('switched-off')).toBe(true);
    expect(staging.getFeatureToggleDefinition('checkout-v2')).toBeUndefined();
    const production = await startSdk('production');
    expect(production.isEnabled('checkout-v2', { userId: 'alice' })).toBe(false);
  });

  it('drops a strategy with _destroy and the flag with remove', async () => {
    const flag = await dev.api.FeatureFlags.show(projectId, 'rollout-none');
    const strategyId = (flag.strategies as { id: number }[])[0]!.id;
    const edited = await dev.api.FeatureFlags.edit(projectId, 'rollout-none', { strategies: [{ id: strategyId, _destroy: true }] } as never);
    expect(edited.strategies).toEqual([]);
    await dev.api.FeatureFlags.remove(projectId, 'rollout-none');
    expect(await failureOf(dev.api.FeatureFlags.show(projectId, 'rollout-none'))).toEqual({ status: 404, description: '404 Not found' });
  });

  it('lists flags by scope and page by page', async () => {
    // ordered by name; checkout-v2 was switched off above and rollout-none is gone
    expect((await dev.api.FeatureFlags.all(projectId, { scope: 'disabled' })).map((f) => f.name)).toEqual(['checkout-v2']);
    const enabled = await dev.api.FeatureFlags.all(projectId, { scope: 'enabled' });
    expect(enabled.map((f) => f.name)).toEqual(['beta-banner', 'flexible-half', 'rollout-all', 'rollout-half', 'staging-only', 'switched-off']);
    expect(enabled.every((f) => f.active)).toBe(true);

    const second = await dev.api.FeatureFlags.all(projectId, { page: 2, perPage: 3, showExpanded: true });
    expect(second.data.map((f) => f.name)).toEqual(['rollout-all', 'rollout-half', 'staging-only']);
    expect(second.paginationInfo).toEqual({ total: 7, next: 3, current: 2, previous: 1, perPage: 3, totalPages: 3 });
    expect(await dev.api.FeatureFlags.all(projectId, { perPage: 2 })).toHaveLength(7);
  });

  it('shows, renames and deletes a user list by its iid', async () => {
    const list = await dev.api.FeatureFlagUserLists.create(projectId, 'qa-team', 'erin');
    const path = `/root/shop/-/feature_flags_user_lists/${list.iid}`;
    expect(await dev.api.FeatureFlagUserLists.show(projectId, list.iid)).toEqual({
      id: list.id,
      iid: 2,
      project_id: projectId,
      name: 'qa-team',
      user_xids: 'erin',
      created_at: list.created_at,
      updated_at: list.updated_at,
      path,
      edit_path: `${path}/edit`,
    });
    expect(await failureOf(viewer.api.FeatureFlagUserLists.show(projectId, list.iid))).toEqual({ status: 403, description: '403 Forbidden' });

    const edited = await dev.api.FeatureFlagUserLists.edit(projectId, list.iid, { name: 'qa', userXids: 'erin,frank' } as never); // sent as user_xids
    expect(edited).toMatchObject({ id: list.id, iid: 2, name: 'qa', user_xids: 'erin,frank' });
    expect((await dev.api.FeatureFlagUserLists.all(projectId)).map((l) => l.name)).toEqual(['beta-testers', 'qa']);

    await dev.api.FeatureFlagUserLists.remove(projectId, list.iid);
    expect(await failureOf(dev.api.FeatureFlagUserLists.show(projectId, list.iid))).toEqual({ status: 404, description: '404 Not found' });
    expect(await failureOf(dev.api.FeatureFlagUserLists.edit(projectId, list.iid, { name: 'gone' }))).toEqual({ status: 404, description: '404 Not found' });
  });
});

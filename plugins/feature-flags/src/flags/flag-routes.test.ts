import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { planLimitsPlugin, planLimitsServiceRef } from '@forgekit/plugin-plan-limits';
import { featureFlagsPlugin } from '../plugin.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('feature flags', () => {
  let app: TestApp;
  let base: string;
  let counter = 0;
  /** A fresh flag name per test, so tests stay independent. */
  const uniqueName = (prefix = 'flag') => `${prefix}-${++counter}`;

  beforeAll(async () => {
    app = await createTestApp({ plugins: [planLimitsPlugin, featureFlagsPlugin] });
    base = `/api/v4/projects/${app.project.id}/feature_flags`;
  });
  afterAll(() => app?.close());

  const createFlag = async (body: Record<string, unknown>) => {
    const res = await app.post(base, body, { token: 'developer' });
    expect(res.status).toBe(201);
    return res.body;
  };

  describe('POST', () => {
    it('creates a flag with the GitLab shape: active by default, version 2, no strategies', async () => {
      const res = await app.post(base, { name: 'awesome-feature' }, { token: 'developer' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        name: 'awesome-feature',
        description: null,
        active: true,
        version: 'new_version_flag',
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
        scopes: [],
        strategies: [],
      });
      expect(Object.keys(res.body)).toEqual(['name', 'description', 'active', 'version', 'created_at', 'updated_at', 'scopes', 'strategies']);
    });

    it('creates strategies of every kind with their scopes', async () => {
      const name = uniqueName();
      const body = await createFlag({
        name,
        version: 'new_version_flag',
        description: 'all kinds',
        active: false,
        strategies: [
          { name: 'default', parameters: {}, scopes: [{ environment_scope: '*' }] },
          { name: 'userWithId', parameters: { userIds: 'user1,user2' }, scopes: [{ environment_scope: 'production' }] },
          { name: 'gradualRolloutUserId', parameters: { groupId: 'default', percentage: '50' }, scopes: [{ environment_scope: 'staging' }] },
          {
            name: 'flexibleRollout',
            parameters: { groupId: 'default', rollout: '25', stickiness: 'userId' },
            scopes: [{ environment_scope: 'review/*' }, { environment_scope: ' sandbox ' }],
          },
        ],
      });
      expect(body).toMatchObject({ name, description: 'all kinds', active: false });
      expect(body.strategies).toEqual([
        { id: expect.any(Number), name: 'default', parameters: {}, scopes: [{ id: expect.any(Number), environment_scope: '*' }], user_list: null },
        {
          id: expect.any(Number),
          name: 'userWithId',
          parameters: { userIds: 'user1,user2' },
          scopes: [{ id: expect.any(Number), environment_scope: 'production' }],
          user_list: null,
        },
        {
          id: expect.any(Number),
          name: 'gradualRolloutUserId',
          parameters: { groupId: 'default', percentage: '50' },
          scopes: [{ id: expect.any(Number), environment_scope: 'staging' }],
          user_list: null,
        },
        {
          id: expect.any(Number),
          name: 'flexibleRollout',
          parameters: { groupId: 'default', rollout: '25', stickiness: 'userId' },
          scopes: [
            { id: expect.any(Number), environment_scope: 'review/*' },
            { id: expect.any(Number), environment_scope: 'sandbox' },
          ],
          user_list: null,
        },
      ]);
      expect(Object.keys(body.strategies[0])).toEqual(['id', 'name', 'parameters', 'scopes', 'user_list']);
    });

    it('accepts parameters as a JSON-encoded string and a missing parameters object as {}', async () => {
      const body = await createFlag({
        name: uniqueName(),
        strategies: [{ name: 'userWithId', parameters: '{"userIds":"a,b"}' }, { name: 'default' }],
      });
      expect(body.strategies.map((s: { parameters: unknown }) => s.parameters)).toEqual([{ userIds: 'a,b' }, {}]);
    });

    it('reads a form-encoded strategy with its parameters as a JSON string', async () => {
      const name = uniqueName();
      const res = await app.post(
        base,
        { name, active: 'false', strategies: [{ name: 'userWithId', parameters: '{"userIds":"a"}', scopes: [{ environment_scope: 'production' }] }] },
        { token: 'developer', as: 'form' },
      );
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        name,
        active: false,
        strategies: [{ name: 'userWithId', parameters: { userIds: 'a' }, scopes: [{ environment_scope: 'production' }] }],
      });
    });

    it('creates a serviceUserList strategy that shows its list', async () => {
      const list = await app.post(
        `/api/v4/projects/${app.project.id}/feature_flags_user_lists`,
        { name: uniqueName('list'), user_xids: 'u1,u2' },
        { token: 'developer' },
      );
      const body = await createFlag({ name: uniqueName(), strategies: [{ name: 'serviceUserList', parameters: {}, user_list_id: list.body.id }] });
      expect(body.strategies[0].user_list).toEqual({ id: list.body.id, iid: list.body.iid, name: list.body.name, user_xids: 'u1,u2' });
    });

    it('answers 400 "name is missing" without a name', async () => {
      const res = await app.post(base, { description: 'x' }, { token: 'developer' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'name is missing' });
    });

    it('names a missing nested parameter the way Grape does', async () => {
      const res = await app.post(base, { name: uniqueName(), strategies: [{ parameters: {} }, { name: 'default', scopes: [{}] }] }, { token: 'developer' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'strategies[0][name] is missing, strategies[1][scopes][0][environment_scope] is missing' });
    });

    it('rejects parameters that are not JSON', async () => {
      const res = await app.post(base, { name: uniqueName(), strategies: [{ name: 'default', parameters: 'not json' }] }, { token: 'developer' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'strategies[0][parameters] is invalid' });
    });

    it('answers "Version is invalid" for any version but new_version_flag', async () => {
      const res = await app.post(base, { name: uniqueName(), version: 'legacy_flag' }, { token: 'developer' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'Version is invalid' });
    });

    it('validates the name with GitLab full messages', async () => {
      const cases: [string, string[]][] = [
        ['Bad-Name', ["Name can contain only lowercase letters, digits, '_' and '-'. Must start with a letter, and cannot end with '-' or '_'"]],
        ['a', ['Name is too short (minimum is 2 characters)']],
        ['trailing-', ["Name can contain only lowercase letters, digits, '_' and '-'. Must start with a letter, and cannot end with '-' or '_'"]],
        [`a${'b'.repeat(63)}`, ['Name is too long (maximum is 63 characters)']],
        [
          '',
          [
            "Name can't be blank",
            'Name is too short (minimum is 2 characters)',
            "Name can contain only lowercase letters, digits, '_' and '-'. Must start with a letter, and cannot end with '-' or '_'",
          ],
        ],
      ];
      for (const [name, message] of cases) {
        const res = await app.post(base, { name }, { token: 'developer' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ message });
      }
    });

    it('rejects a taken name and a long description', async () => {
      const name = uniqueName();
      await createFlag({ name });
      const res = await app.post(base, { name, description: 'd'.repeat(256) }, { token: 'developer' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: ['Name has already been taken', 'Description is too long (maximum is 255 characters)'] });
    });

    it('validates strategies before the flag, with nested full messages', async () => {
      const res = await app.post(
        base,
        {
          name: 'X',
          strategies: [
            { name: 'gradualRolloutUserId', parameters: { groupId: 'Bad1', percentage: 50 } },
            { name: 'flexibleRollout', parameters: { groupId: 'default', rollout: '101', stickiness: 'sticky' } },
            { name: 'userWithId', parameters: { userIds: 'a,,b' } },
            { name: 'unknown', parameters: { anything: 'x' } },
            { name: 'default', parameters: { extra: '1' }, scopes: [{ environment_scope: 'bad%scope' }, { environment_scope: '  ' }] },
          ],
        },
        { token: 'developer' },
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: [
          'Strategies parameters percentage must be a string between 0 and 100 inclusive',
          'Strategies parameters groupId parameter is invalid',
          'Strategies parameters stickiness parameter must be default, userId, sessionId, or random',
          'Strategies parameters rollout must be a string between 0 and 100 inclusive',
          'Strategies parameters userIds must be a string of unique comma separated values each 256 characters or less',
          'Strategies name strategy name is invalid',
          "Strategies scopes environment scope can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces",
          "Strategies scopes environment scope can't be blank",
          'Strategies parameters parameters are invalid',
          'Name is too short (minimum is 2 characters)',
          "Name can contain only lowercase letters, digits, '_' and '-'. Must start with a letter, and cannot end with '-' or '_'",
        ],
      });
      const list = await app.get(base, { token: 'developer', query: { per_page: 100 } });
      expect(list.body.map((flag: { name: string }) => flag.name)).not.toContain('X');
    });

    it('checks the user list of a strategy', async () => {
      const list = await app.post(
        `/api/v4/projects/${app.project.id}/feature_flags_user_lists`,
        { name: uniqueName('list'), user_xids: 'u1' },
        { token: 'developer' },
      );
      const withoutList = await app.post(base, { name: uniqueName(), strategies: [{ name: 'serviceUserList', parameters: {} }] }, { token: 'developer' });
      expect(withoutList.body).toEqual({ message: ["Strategies user list can't be blank"] });
      const listOnDefault = await app.post(
        base,
        { name: uniqueName(), strategies: [{ name: 'default', parameters: {}, user_list_id: list.body.id }] },
        { token: 'developer' },
      );
      expect(listOnDefault.body).toEqual({ message: ['Strategies user list must be blank'] });
      const unknownList = await app.post(
        base,
        { name: uniqueName(), strategies: [{ name: 'serviceUserList', parameters: {}, user_list_id: 999999 }] },
        { token: 'developer' },
      );
      expect(unknownList.status).toBe(404);
      expect(unknownList.body).toEqual({ message: '404 Not found' });
    });

    it('rejects a user list of another project', async () => {
      const other = await app.post('/api/v4/projects', { name: 'Other Flags', path: 'other-flags' }, { token: 'admin' });
      const foreign = await app.post(`/api/v4/projects/${other.body.id}/feature_flags_user_lists`, { name: 'foreign', user_xids: 'x' }, { token: 'admin' });
      const res = await app.post(
        base,
        { name: uniqueName(), strategies: [{ name: 'serviceUserList', parameters: {}, user_list_id: foreign.body.id }] },
        { token: 'developer' },
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: ['Strategies user list must belong to the same project'] });
    });

    it('stops at the project_feature_flags plan limit, reporting it before other errors', async () => {
      const project = await app.post('/api/v4/projects', { name: 'Limited Flags', path: 'limited-flags', namespace_id: app.group.id }, { token: 'owner' });
      const limited = `/api/v4/projects/${project.body.id}/feature_flags`;
      await app.kernel.resolve(planLimitsServiceRef).set('project_feature_flags', 2);
      try {
        for (const name of ['first', 'second']) expect((await app.post(limited, { name }, { token: 'developer' })).status).toBe(201);
        const third = await app.post(limited, { name: 'third' }, { token: 'developer' });
        expect(third).toMatchObject({ status: 400, body: { message: ['Maximum number of project feature flags (2) exceeded'] } });
        const invalid = await app.post(limited, { name: 'Bad', strategies: [{ name: 'unknown', parameters: {} }] }, { token: 'developer' });
        expect(invalid.body).toEqual({
          message: [
            'Maximum number of project feature flags (2) exceeded',
            'Strategies name strategy name is invalid',
            "Name can contain only lowercase letters, digits, '_' and '-'. Must start with a letter, and cannot end with '-' or '_'",
          ],
        });
        // Updates are not limited, and a delete makes room again.
        expect((await app.put(`${limited}/second`, { description: 'still editable' }, { token: 'developer' })).status).toBe(200);
        expect((await app.delete(`${limited}/second`, { token: 'developer' })).status).toBe(200);
        expect((await app.post(limited, { name: 'third' }, { token: 'developer' })).status).toBe(201);
        // Each project counts its own flags.
        const other = await app.post('/api/v4/projects', { name: 'Other Limited', path: 'other-limited', namespace_id: app.group.id }, { token: 'owner' });
        expect((await app.post(`/api/v4/projects/${other.body.id}/feature_flags`, { name: 'first' }, { token: 'developer' })).status).toBe(201);
      } finally {
        await app.kernel.resolve(planLimitsServiceRef).set('project_feature_flags', 200);
      }
    });

    it('holds the plan limit and the unique name when creates run in parallel', async () => {
      const project = await app.post('/api/v4/projects', { name: 'Racing Flags', path: 'racing-flags', namespace_id: app.group.id }, { token: 'owner' });
      const racing = `/api/v4/projects/${project.body.id}/feature_flags`;
      await app.kernel.resolve(planLimitsServiceRef).set('project_feature_flags', 3);
      try {
        const strategies = [{ name: 'default', parameters: {}, scopes: [{ environment_scope: '*' }] }];
        const results = await Promise.all(Array.from({ length: 8 }, (_, i) => app.post(racing, { name: `race-${i}`, strategies }, { token: 'developer' })));
        expect(results.filter((res) => res.status === 201)).toHaveLength(3);
        for (const refused of results.filter((res) => res.status !== 201)) {
          expect(refused).toMatchObject({ status: 400, body: { message: ['Maximum number of project feature flags (3) exceeded'] } });
        }
        const listed = await app.get(racing, { token: 'developer' });
        expect(listed.body).toHaveLength(3);
        expect(listed.body.every((flag: { strategies: unknown[] }) => flag.strategies.length === 1)).toBe(true);

        await app.kernel.resolve(planLimitsServiceRef).set('project_feature_flags', 0);
        const same = await Promise.all(Array.from({ length: 5 }, () => app.post(racing, { name: 'one-name' }, { token: 'developer' })));
        expect(same.filter((res) => res.status === 201)).toHaveLength(1);
        for (const refused of same.filter((res) => res.status !== 201)) {
          expect(refused).toMatchObject({ status: 400, body: { message: ['Name has already been taken'] } });
        }
      } finally {
        await app.kernel.resolve(planLimitsServiceRef).set('project_feature_flags', 200);
      }
    });

    it('answers 403 to a reporter, 404 to a non-member, 401 without a token', async () => {
      expect(await app.post(base, { name: uniqueName() }, { token: 'reporter' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
      expect(await app.post(base, { name: uniqueName() }, { token: 'nonMember' })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
      expect(await app.post(base, { name: uniqueName() })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    });

    it('authorizes before it validates, as GitLab does', async () => {
      expect(await app.post(base, {}, { token: 'reporter' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
      expect(await app.post(base, {}, { token: 'nonMember' })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    });
  });

  describe('GET', () => {
    it('lists flags by name, filters by scope and paginates', async () => {
      const project = await app.post('/api/v4/projects', { name: 'Listing', path: 'listing', namespace_id: app.group.id }, { token: 'owner' });
      const listBase = `/api/v4/projects/${project.body.id}/feature_flags`;
      for (const [name, active] of [
        ['charlie', true],
        ['alpha', false],
        ['bravo', true],
      ] as const) {
        expect((await app.post(listBase, { name, active }, { token: 'developer' })).status).toBe(201);
      }
      const all = await app.get(listBase, { token: 'developer' });
      expect(all.status).toBe(200);
      expect(all.body.map((flag: { name: string }) => flag.name)).toEqual(['alpha', 'bravo', 'charlie']);
      expect(all.headers.get('x-total')).toBe('3');

      const enabled = await app.get(listBase, { token: 'developer', query: { scope: 'enabled' } });
      expect(enabled.body.map((flag: { name: string }) => flag.name)).toEqual(['bravo', 'charlie']);
      const disabled = await app.get(listBase, { token: 'developer', query: { scope: 'disabled' } });
      expect(disabled.body.map((flag: { name: string }) => flag.name)).toEqual(['alpha']);

      const second = await app.get(listBase, { token: 'developer', query: { page: 2, per_page: 1 } });
      expect(second.body.map((flag: { name: string }) => flag.name)).toEqual(['bravo']);
      expect(second.headers.get('x-total')).toBe('3');
      expect(second.headers.get('x-next-page')).toBe('3');
    });

    it('rejects an unknown scope', async () => {
      const res = await app.get(base, { token: 'developer', query: { scope: 'all' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'scope does not have a valid value' });
    });

    it('shows one flag by name and 404s an unknown one', async () => {
      const name = uniqueName();
      const created = await createFlag({ name, strategies: [{ name: 'default', parameters: {}, scopes: [{ environment_scope: 'production' }] }] });
      const res = await app.get(`${base}/${name}`, { token: 'developer' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(created);
      const missing = await app.get(`${base}/no-such-flag`, { token: 'developer' });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 Not found' });
    });

    it('answers 403 to reporters and 404 to outsiders', async () => {
      expect((await app.get(base, { token: 'reporter' })).status).toBe(403);
      expect((await app.get(base, { token: 'nonMember' })).body).toEqual({ message: '404 Project Not Found' });
      expect((await app.get(base, { token: 'maintainer' })).status).toBe(200);
      expect((await app.get(base, { token: 'admin' })).status).toBe(200);
      expect((await app.get('/api/v4/projects/test-group%2Ftest-project/feature_flags', { token: 'developer' })).status).toBe(200);
    });

    it('answers 403 while the project has feature flags switched off', async () => {
      const project = await app.post(
        '/api/v4/projects',
        { name: 'No Flags', path: 'no-flags', namespace_id: app.group.id, feature_flags_access_level: 'disabled' },
        { token: 'owner' },
      );
      expect(project.status).toBe(201);
      const res = await app.get(`/api/v4/projects/${project.body.id}/feature_flags`, { token: 'developer' });
      expect(res).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    });
  });

  describe('PUT', () => {
    it('updates description and active, ignores version, and keeps strategies', async () => {
      const name = uniqueName();
      const created = await createFlag({ name, description: 'old', strategies: [{ name: 'default', parameters: {} }] });
      const res = await app.put(`${base}/${name}`, { description: 'new', active: false, version: 'bad_value' }, { token: 'developer' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name, description: 'new', active: false, version: 'new_version_flag' });
      expect(res.body.strategies).toEqual(created.strategies);
    });

    it('renames a flag', async () => {
      const name = uniqueName();
      await createFlag({ name });
      const renamed = uniqueName('renamed');
      const res = await app.put(`${base}/${name}`, { name: renamed }, { token: 'developer' });
      expect(res.status).toBe(200);
      expect(res.body.name).toBe(renamed);
      expect((await app.get(`${base}/${renamed}`, { token: 'developer' })).status).toBe(200);
      expect((await app.get(`${base}/${name}`, { token: 'developer' })).status).toBe(404);
    });

    it('rejects a rename to a taken or invalid name', async () => {
      const [first, second] = [uniqueName(), uniqueName()];
      await createFlag({ name: first });
      await createFlag({ name: second });
      const taken = await app.put(`${base}/${second}`, { name: first }, { token: 'developer' });
      expect(taken).toMatchObject({ status: 400, body: { message: ['Name has already been taken'] } });
      const invalid = await app.put(`${base}/${second}`, { name: 'Nope' }, { token: 'developer' });
      expect(invalid.body).toEqual({
        message: ["Name can contain only lowercase letters, digits, '_' and '-'. Must start with a letter, and cannot end with '-' or '_'"],
      });
    });

    it('updates strategies by id, adds new ones, destroys with _destroy, keeps the rest', async () => {
      const name = uniqueName();
      const created = await createFlag({
        name,
        strategies: [
          { name: 'default', parameters: {}, scopes: [{ environment_scope: '*' }] },
          { name: 'userWithId', parameters: { userIds: 'userA,userB' } },
          { name: 'default', parameters: {}, scopes: [{ environment_scope: 'kept' }] },
        ],
      });
      const [a, b, c] = created.strategies;
      const res = await app.put(
        `${base}/${name}`,
        {
          strategies: [
            { id: a.id, name: 'default', parameters: {}, _destroy: true },
            { id: b.id, parameters: { userIds: 'userB' } },
            {
              name: 'flexibleRollout',
              parameters: { groupId: 'default', rollout: '10', stickiness: 'default' },
              scopes: [{ environment_scope: 'production' }],
            },
            { name: 'default', _destroy: true },
          ],
        },
        { token: 'developer' },
      );
      expect(res.status).toBe(200);
      expect(res.body.strategies).toEqual([
        { ...b, parameters: { userIds: 'userB' } },
        c,
        {
          id: expect.any(Number),
          name: 'flexibleRollout',
          parameters: { groupId: 'default', rollout: '10', stickiness: 'default' },
          scopes: [{ id: expect.any(Number), environment_scope: 'production' }],
          user_list: null,
        },
      ]);
    });

    it('updates, adds and destroys scopes by id', async () => {
      const name = uniqueName();
      const created = await createFlag({
        name,
        strategies: [{ name: 'default', parameters: {}, scopes: [{ environment_scope: '*' }, { environment_scope: 'staging' }] }],
      });
      const strategy = created.strategies[0];
      const [star, staging] = strategy.scopes;
      const res = await app.put(
        `${base}/${name}`,
        {
          strategies: [
            {
              id: strategy.id,
              scopes: [{ id: star.id, environment_scope: 'production' }, { id: staging.id, _destroy: true }, { environment_scope: 'review/*' }],
            },
          ],
        },
        { token: 'developer' },
      );
      expect(res.status).toBe(200);
      expect(res.body.strategies[0].scopes).toEqual([
        { id: star.id, environment_scope: 'production' },
        { id: expect.any(Number), environment_scope: 'review/*' },
      ]);
    });

    it('validates changed strategies and leaves everything as it was on failure', async () => {
      const name = uniqueName();
      const created = await createFlag({ name, description: 'before', strategies: [{ name: 'default', parameters: {} }] });
      const res = await app.put(
        `${base}/${name}`,
        { description: 'after', strategies: [{ id: created.strategies[0].id, name: 'gradualRolloutUserId', parameters: { bad: 'params' } }] },
        { token: 'developer' },
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: ['Strategies parameters parameters are invalid'] });
      expect((await app.get(`${base}/${name}`, { token: 'developer' })).body).toEqual(created);
    });

    it('answers 404 "Not found" for a strategy or scope id that is not the flag\'s', async () => {
      const name = uniqueName();
      const created = await createFlag({ name, strategies: [{ name: 'default', parameters: {}, scopes: [{ environment_scope: '*' }] }] });
      const strategy = await app.put(`${base}/${name}`, { strategies: [{ id: 99999999, name: 'default' }] }, { token: 'developer' });
      expect(strategy).toMatchObject({ status: 404, body: { message: '404 Not found' } });
      const scope = await app.put(
        `${base}/${name}`,
        { strategies: [{ id: created.strategies[0].id, scopes: [{ id: 99999999, environment_scope: 'x' }] }] },
        { token: 'developer' },
      );
      expect(scope).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    });

    it('switches user lists, drops the list when the strategy changes kind, and 404s a foreign list', async () => {
      const lists = `/api/v4/projects/${app.project.id}/feature_flags_user_lists`;
      const first = (await app.post(lists, { name: uniqueName('list'), user_xids: 'a' }, { token: 'developer' })).body;
      const second = (await app.post(lists, { name: uniqueName('list'), user_xids: 'b' }, { token: 'developer' })).body;
      const name = uniqueName();
      const created = await createFlag({ name, strategies: [{ name: 'serviceUserList', parameters: {}, user_list_id: first.id }] });
      const strategyId = created.strategies[0].id;

      const switched = await app.put(`${base}/${name}`, { strategies: [{ id: strategyId, user_list_id: second.id }] }, { token: 'developer' });
      expect(switched.body.strategies[0].user_list).toEqual({ id: second.id, iid: second.iid, name: second.name, user_xids: 'b' });

      const other = await app.post('/api/v4/projects', { name: 'Foreign Lists', path: 'foreign-lists' }, { token: 'admin' });
      const foreign = await app.post(`/api/v4/projects/${other.body.id}/feature_flags_user_lists`, { name: 'theirs', user_xids: 'x' }, { token: 'admin' });
      const rejected = await app.put(`${base}/${name}`, { strategies: [{ id: strategyId, user_list_id: foreign.body.id }] }, { token: 'developer' });
      expect(rejected).toMatchObject({ status: 404, body: { message: 'Not Found' } });

      const changedKind = await app.put(
        `${base}/${name}`,
        { strategies: [{ id: strategyId, name: 'gradualRolloutUserId', parameters: { groupId: 'default', percentage: '25' } }] },
        { token: 'developer' },
      );
      expect(changedKind.status).toBe(200);
      expect(changedKind.body.strategies[0]).toMatchObject({ name: 'gradualRolloutUserId', user_list: null });
    });

    it('answers 404 for an unknown flag and 403 for a reporter', async () => {
      expect(await app.put(`${base}/no-such-flag`, { description: 'x' }, { token: 'developer' })).toMatchObject({
        status: 404,
        body: { message: '404 Not found' },
      });
      const name = uniqueName();
      await createFlag({ name, description: 'old' });
      expect(await app.put(`${base}/${name}`, { description: 'x' }, { token: 'reporter' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
      expect((await app.get(`${base}/${name}`, { token: 'developer' })).body.description).toBe('old');
    });
  });

  describe('DELETE', () => {
    it('answers 200 with the deleted flag', async () => {
      const name = uniqueName();
      const created = await createFlag({ name, strategies: [{ name: 'default', parameters: {}, scopes: [{ environment_scope: '*' }] }] });
      const res = await app.delete(`${base}/${name}`, { token: 'developer' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(created);
      expect((await app.get(`${base}/${name}`, { token: 'developer' })).status).toBe(404);
    });

    it('answers 404 for an unknown flag and 403 for a reporter', async () => {
      expect(await app.delete(`${base}/no-such-flag`, { token: 'developer' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
      const name = uniqueName();
      await createFlag({ name });
      expect(await app.delete(`${base}/${name}`, { token: 'reporter' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
      expect((await app.get(`${base}/${name}`, { token: 'developer' })).status).toBe(200);
    });
  });
});

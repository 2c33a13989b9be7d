import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { planLimitsPlugin, planLimitsServiceRef } from '@forgekit/plugin-plan-limits';
import { ciVariablesPlugin } from '../plugin.js';
import { CiVariableEntity } from '../entities/ci-variable.js';

describe('project variables', () => {
  let app: TestApp;
  let base: string;
  const item = (key: string) => `${base}/${key}`;

  beforeAll(async () => {
    app = await createTestApp({ plugins: [planLimitsPlugin, ciVariablesPlugin] });
    base = `/api/v4/projects/${app.project.id}/variables`;
  });
  afterAll(() => app?.close());

  const create = (body: Record<string, unknown>, token = 'maintainer') => app.post(base, body, { token });

  describe('POST /projects/:id/variables', () => {
    it('creates a variable with GitLab defaults', async () => {
      const res = await create({ key: 'PLAIN', value: 'hello world' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        variable_type: 'env_var',
        key: 'PLAIN',
        value: 'hello world',
        hidden: false,
        protected: false,
        masked: false,
        raw: false,
        environment_scope: '*',
        description: null,
      });
      expect(Object.keys(res.body)).toEqual(['variable_type', 'key', 'value', 'hidden', 'protected', 'masked', 'raw', 'environment_scope', 'description']);
    });

    it('creates a variable with every optional attribute, as a form', async () => {
      const res = await app.post(
        base,
        {
          key: 'FULL',
          value: 'secret-value',
          variable_type: 'file',
          protected: 'true',
          masked: 'yes',
          raw: '1',
          environment_scope: 'review/*',
          description: 'the description',
        },
        { token: 'maintainer', as: 'form' },
      );
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        variable_type: 'file',
        key: 'FULL',
        value: 'secret-value',
        hidden: false,
        protected: true,
        masked: true,
        raw: true,
        environment_scope: 'review/*',
        description: 'the description',
      });
    });

    it('strips spaces around the key and the scope', async () => {
      const res = await create({ key: '  STRIPPED ', value: 'v', environment_scope: ' production ' });
      expect(res.status).toBe(201);
      expect(res.body.key).toBe('STRIPPED');
      expect(res.body.environment_scope).toBe('production');
    });

    it('hides the value of a masked and hidden variable from the first answer on', async () => {
      const res = await create({ key: 'HIDDEN', value: 'PROTECTED_VALUE_2', masked_and_hidden: true, protected: true });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ key: 'HIDDEN', value: null, hidden: true, masked: true, protected: true });
      const read = await app.get(item('HIDDEN'), { token: 'maintainer' });
      expect(read.body.value).toBeNull();
      const list = await app.get(base, { token: 'maintainer', query: { per_page: 100 } });
      expect(list.body.find((v: { key: string }) => v.key === 'HIDDEN').value).toBeNull();
    });

    it('overrides masked=false when masked_and_hidden is set', async () => {
      const res = await create({ key: 'HIDDEN_2', value: 'abcdefgh', masked: false, masked_and_hidden: true });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ masked: true, hidden: true, value: null });
    });

    it('allows the same key in another environment scope', async () => {
      expect((await create({ key: 'SCOPED', value: 'a', environment_scope: 'staging' })).status).toBe(201);
      expect((await create({ key: 'SCOPED', value: 'b', environment_scope: 'production' })).status).toBe(201);
    });

    it('rejects a key already taken in the same scope', async () => {
      const res = await create({ key: 'PLAIN', value: 'again' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: { key: ['(PLAIN) has already been taken'] } });
    });

    it('reports every model error at once, in GitLab order', async () => {
      const res = await create({ key: 'PLAIN', value: 'again', description: 'd'.repeat(256) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: { description: ['is too long (maximum is 255 characters)'], key: ['(PLAIN) has already been taken'] } });
    });

    it('rejects keys with other characters, empty keys and long keys', async () => {
      expect((await create({ key: 'MY-KEY', value: 'x' })).body).toEqual({ message: { key: ["can contain only letters, digits and '_'."] } });
      expect((await create({ key: '   ', value: 'x' })).body).toEqual({ message: { key: ["can't be blank", "can contain only letters, digits and '_'."] } });
      const long = await create({ key: 'K'.repeat(256), value: 'x' });
      expect(long.status).toBe(400);
      expect(long.body).toEqual({ message: { key: ['is too long (maximum is 255 characters)'] } });
      expect((await create({ key: 'K'.repeat(255), value: 'x' })).status).toBe(201);
    });

    it('applies the masking rules to expanded values', async () => {
      for (const value of ['short', 'has spaces in it', 'dollar$VARIABLE', 'line\nbreak!']) {
        const res = await create({ key: 'MASKED_BAD', value, masked: true });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ message: { value: ['is invalid'] } });
      }
      const ok = await create({ key: 'MASKED_OK', value: 'Hello+World_123/@:-~.=', masked: true });
      expect(ok.status).toBe(201);
    });

    it('applies the looser masking rules to raw values', async () => {
      const ok = await create({ key: 'MASKED_RAW', value: 'HelloWorld%#^$VAR', masked: true, raw: true });
      expect(ok.status).toBe(201);
      const spaced = await create({ key: 'MASKED_RAW_BAD', value: 'hello world!', masked: true, raw: true });
      expect(spaced.body).toEqual({ message: { value: ['is invalid'] } });
      const short = await create({ key: 'MASKED_RAW_BAD', value: 'a$b%c^d', masked: true, raw: true });
      expect(short.body).toEqual({ message: { value: ['is invalid'] } });
    });

    it('rejects an environment scope with other characters, or a blank one', async () => {
      const res = await create({ key: 'BAD_SCOPE', value: 'x', environment_scope: 'prod#1' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: { environment_scope: ["can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces"] } });
      expect((await create({ key: 'BAD_SCOPE', value: 'x', environment_scope: '  ' })).body).toEqual({ message: { environment_scope: ["can't be blank"] } });
    });

    it('validates the parameters with Grape messages', async () => {
      expect((await create({})).body).toEqual({ error: 'key is missing, value is missing' });
      const res = await create({ key: 'TYPE', value: 'x', variable_type: 'secret', protected: 'maybe' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'protected is invalid, variable_type does not have a valid value' });
    });

    it('accepts an empty value', async () => {
      const res = await create({ key: 'EMPTY_VALUE', value: '' });
      expect(res.status).toBe(201);
      expect(res.body.value).toBe('');
    });
  });

  describe('GET /projects/:id/variables', () => {
    it('lists variables oldest first, paginated', async () => {
      const res = await app.get(base, { token: 'maintainer', query: { per_page: 2 } });
      expect(res.status).toBe(200);
      expect(res.body.map((v: { key: string }) => v.key)).toEqual(['PLAIN', 'FULL']);
      expect(res.headers.get('x-total')).toBe('11');
      expect(res.headers.get('x-next-page')).toBe('2');
    });

    it('lists an empty project as []', async () => {
      const other = await app.post('/api/v4/projects', { name: 'Empty Project', namespace_id: app.group.id }, { token: 'owner' });
      expect(other.status).toBe(201);
      const res = await app.get(`/api/v4/projects/${other.body.id}/variables`, { token: 'maintainer' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
      expect(res.headers.get('x-total')).toBe('0');
    });

    it('finds the project by its full path', async () => {
      const res = await app.get('/api/v4/projects/test-group%2Ftest-project/variables', { token: 'maintainer' });
      expect(res.status).toBe(200);
      expect(res.body.length).toBeGreaterThan(0);
    });
  });

  describe('GET /projects/:id/variables/:key', () => {
    it('shows one variable', async () => {
      const res = await app.get(item('FULL'), { token: 'maintainer' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ key: 'FULL', value: 'secret-value', environment_scope: 'review/*' });
    });

    it('answers 404 for an unknown key', async () => {
      const res = await app.get(item('NOPE'), { token: 'maintainer' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Variable Not Found' });
    });

    it('answers 409 when several scopes share the key and no filter is given', async () => {
      const res = await app.get(item('SCOPED'), { token: 'maintainer' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'" });
    });

    it('picks the scope named by filter[environment_scope]', async () => {
      const res = await app.get(item('SCOPED'), { token: 'maintainer', query: { 'filter[environment_scope]': 'production' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ value: 'b', environment_scope: 'production' });
    });

    it('answers 404 when the filter matches nothing, even for a single variable', async () => {
      expect((await app.get(item('SCOPED'), { token: 'maintainer', query: { 'filter[environment_scope]': 'invalid' } })).status).toBe(404);
      const single = await app.get(item('PLAIN'), { token: 'maintainer', query: { 'filter[environment_scope]': 'invalid' } });
      expect(single.status).toBe(404);
      expect(single.body).toEqual({ message: '404 Variable Not Found' });
    });

    it('ignores an empty filter', async () => {
      expect((await app.get(item('PLAIN'), { token: 'maintainer', query: { 'filter[environment_scope]': '' } })).status).toBe(200);
    });
  });

  describe('PUT /projects/:id/variables/:key', () => {
    it('updates the given attributes only', async () => {
      await create({ key: 'TO_UPDATE', value: 'VALUE_1' });
      const res = await app.put(
        item('TO_UPDATE'),
        { variable_type: 'file', value: 'VALUE_1_UP', protected: true, description: 'updated' },
        { token: 'maintainer' },
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        variable_type: 'file',
        key: 'TO_UPDATE',
        value: 'VALUE_1_UP',
        hidden: false,
        protected: true,
        masked: false,
        raw: false,
        environment_scope: '*',
        description: 'updated',
      });
      const again = await app.put(item('TO_UPDATE'), { masked: true, raw: true, key: 'RENAMED' }, { token: 'maintainer' });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ key: 'TO_UPDATE', value: 'VALUE_1_UP', masked: true, raw: true, protected: true, variable_type: 'file' });
      expect((await app.get(item('TO_UPDATE'), { token: 'maintainer' })).body).toEqual(again.body);
    });

    it('clears the description with null', async () => {
      const res = await app.put(item('TO_UPDATE'), { description: null }, { token: 'maintainer' });
      expect(res.status).toBe(200);
      expect(res.body.description).toBeNull();
    });

    it('moves a variable to another scope', async () => {
      const res = await app.put(item('TO_UPDATE'), { environment_scope: 'staging' }, { token: 'maintainer' });
      expect(res.status).toBe(200);
      expect(res.body.environment_scope).toBe('staging');
    });

    it('rejects a move onto a scope the key already has', async () => {
      const res = await app.put(
        item('SCOPED'),
        { environment_scope: 'production' },
        { token: 'maintainer', query: { 'filter[environment_scope]': 'staging' } },
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: { key: ['(SCOPED) has already been taken'] } });
    });

    it('rejects a value that cannot be masked, keeping the old one', async () => {
      await create({ key: 'UNMASKED', value: 'VALUE_OK_1' });
      const res = await app.put(item('UNMASKED'), { value: 'shrt', masked: true }, { token: 'maintainer' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: { value: ['is invalid'] } });
      expect((await app.get(item('UNMASKED'), { token: 'maintainer' })).body).toMatchObject({ value: 'VALUE_OK_1', masked: false });
    });

    it('refuses to unmask a hidden variable but updates its other attributes', async () => {
      const refused = await app.put(item('HIDDEN'), { masked: false }, { token: 'maintainer' });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ message: { base: ['The visibility setting cannot be changed for masked and hidden variables.'] } });
      const ok = await app.put(item('HIDDEN'), { value: 'NEW_SECRET_VALUE', masked: true, description: 'still hidden' }, { token: 'maintainer' });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ value: null, hidden: true, masked: true, description: 'still hidden' });
    });

    it('updates the scope named by the filter and answers 409 without one', async () => {
      const ambiguous = await app.put(item('SCOPED'), { value: 'new_val' }, { token: 'maintainer' });
      expect(ambiguous.status).toBe(409);
      const res = await app.put(item('SCOPED'), { value: 'new_val', filter: { environment_scope: 'production' } }, { token: 'maintainer' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ value: 'new_val', environment_scope: 'production' });
      const staging = await app.get(item('SCOPED'), { token: 'maintainer', query: { 'filter[environment_scope]': 'staging' } });
      expect(staging.body.value).toBe('a');
    });

    it('answers 404 for an unknown key or filter', async () => {
      const res = await app.put(item('NOPE'), { value: 'x' }, { token: 'maintainer' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Variable Not Found' });
      expect((await app.put(item('SCOPED'), { value: 'x', filter: { environment_scope: 'invalid' } }, { token: 'maintainer' })).status).toBe(404);
    });

    it('validates parameter types', async () => {
      const res = await app.put(item('PLAIN'), { masked: 'perhaps', variable_type: 'other', filter: 'production' }, { token: 'maintainer' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'masked is invalid, variable_type does not have a valid value, filter is invalid' });
    });
  });

  describe('DELETE /projects/:id/variables/:key', () => {
    it('deletes a variable', async () => {
      await create({ key: 'TO_DELETE', value: 'x' });
      const res = await app.delete(item('TO_DELETE'), { token: 'maintainer' });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await app.get(item('TO_DELETE'), { token: 'maintainer' })).status).toBe(404);
    });

    it('answers 404 for an unknown key', async () => {
      const res = await app.delete(item('NOPE'), { token: 'maintainer' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Variable Not Found' });
    });

    it('needs the filter when the key is shared', async () => {
      expect((await app.delete(item('SCOPED'), { token: 'maintainer' })).status).toBe(409);
      expect((await app.delete(item('SCOPED'), { token: 'maintainer', query: { 'filter[environment_scope]': 'staging' } })).status).toBe(204);
      expect((await app.get(item('SCOPED'), { token: 'maintainer' })).body).toMatchObject({ environment_scope: 'production' });
    });
  });

  describe('permissions', () => {
    const calls: [string, (token: string | null) => Promise<{ status: number; body: unknown }>][] = [
      ['list', (token) => app.get(base, { token })],
      ['get', (token) => app.get(item('PLAIN'), { token })],
      ['create', (token) => app.post(base, {}, { token })],
      ['update', (token) => app.put(item('PLAIN'), { value: 'x' }, { token })],
      ['delete', (token) => app.delete(item('PLAIN'), { token })],
    ];

    it.each(calls)('%s: 403 for a developer, before looking at the input', async (_name, call) => {
      const res = await call('developer');
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
    });

    it.each(calls)('%s: 401 for an anonymous caller', async (_name, call) => {
      const res = await call(null);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: '401 Unauthorized' });
    });

    it.each(calls)('%s: 404 for a non-member of a private project', async (_name, call) => {
      const res = await call('nonMember');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Project Not Found' });
    });

    it('lets owners and administrators manage variables', async () => {
      expect((await app.get(item('PLAIN'), { token: 'owner' })).status).toBe(200);
      expect((await app.get(item('PLAIN'), { token: 'admin' })).status).toBe(200);
    });

    it('answers 403 to a non-member of a public project', async () => {
      const project = await app.post('/api/v4/projects', { name: 'Public Project', visibility: 'public' }, { token: 'owner' });
      expect(project.status).toBe(201);
      const res = await app.get(`/api/v4/projects/${project.body.id}/variables`, { token: 'nonMember' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
    });
  });

  describe('plan limit', () => {
    it('refuses a variable beyond project_ci_variables', async () => {
      const project = await app.post('/api/v4/projects', { name: 'Limited Project', namespace_id: app.group.id }, { token: 'owner' });
      const path = `/api/v4/projects/${project.body.id}/variables`;
      await app.kernel.resolve(planLimitsServiceRef).set('project_ci_variables', 1);
      try {
        expect((await app.post(path, { key: 'FIRST', value: 'x' }, { token: 'owner' })).status).toBe(201);
        const res = await app.post(path, { key: 'TOO_MANY_VARS', value: 'too many' }, { token: 'owner' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ message: { base: ['Maximum number of project ci variables (1) exceeded'] } });
        const both = await app.post(path, { key: 'FIRST', value: 'x', environment_scope: '%' }, { token: 'owner' });
        expect(both.body).toEqual({
          message: {
            base: ['Maximum number of project ci variables (1) exceeded'],
            environment_scope: ["can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces"],
          },
        });
      } finally {
        await app.kernel.resolve(planLimitsServiceRef).set('project_ci_variables', 8000);
      }
    });

    it('holds when creates race for the last place', async () => {
      const project = await app.post('/api/v4/projects', { name: 'Raced Project', namespace_id: app.group.id }, { token: 'owner' });
      const path = `/api/v4/projects/${project.body.id}/variables`;
      await app.kernel.resolve(planLimitsServiceRef).set('project_ci_variables', 3);
      try {
        const results = await Promise.all(Array.from({ length: 8 }, (_, i) => app.post(path, { key: `RACE_${i}`, value: 'x' }, { token: 'owner' })));
        expect(results.filter((res) => res.status === 201)).toHaveLength(3);
        expect(results.filter((res) => res.status === 400)).toHaveLength(5);
        expect((await app.get(path, { token: 'owner' })).body).toHaveLength(3);
      } finally {
        await app.kernel.resolve(planLimitsServiceRef).set('project_ci_variables', 8000);
      }
    });
  });

  it("drops a project's variables when the project is deleted", async () => {
    const project = await app.post('/api/v4/projects', { name: 'Doomed Project', namespace_id: app.group.id }, { token: 'owner' });
    await app.post(`/api/v4/projects/${project.body.id}/variables`, { key: 'DOOMED', value: 'x' }, { token: 'owner' });
    const { database } = app.kernel;
    const count = () => database.count(database.from(CiVariableEntity).where({ ownerType: 'project', ownerId: project.body.id }));
    expect(await count()).toBe(1);
    expect((await app.delete(`/api/v4/projects/${project.body.id}`, { token: 'owner' })).status).toBe(202);
    expect(await count()).toBe(0);
    expect((await app.get(item('PLAIN'), { token: 'maintainer' })).status).toBe(200);
  });
});

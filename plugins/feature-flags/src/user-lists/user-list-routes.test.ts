import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { planLimitsPlugin } from '@forgekit/plugin-plan-limits';
import { featureFlagsPlugin } from '../plugin.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('feature flag user lists', () => {
  let app: TestApp;
  let counter = 0;

  beforeAll(async () => {
    app = await createTestApp({ plugins: [planLimitsPlugin, featureFlagsPlugin] });
  });
  afterAll(() => app?.close());

  /** A project of its own per test, so iids and lists start fresh. */
  async function freshProject() {
    const res = await app.post('/api/v4/projects', { name: `Lists ${++counter}`, path: `lists-${counter}`, namespace_id: app.group.id }, { token: 'owner' });
    expect(res.status).toBe(201);
    return { id: res.body.id as number, base: `/api/v4/projects/${res.body.id}/feature_flags_user_lists`, path: res.body.path_with_namespace as string };
  }

  const createList = async (base: string, name: string, userXids = 'user1') => {
    const res = await app.post(base, { name, user_xids: userXids }, { token: 'developer' });
    expect(res.status).toBe(201);
    return res.body;
  };

  describe('POST', () => {
    it('creates a list with iid 1 and the full GitLab shape', async () => {
      const project = await freshProject();
      const res = await app.post(project.base, { name: 'mylist', user_xids: 'user1,user2' }, { token: 'developer' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        iid: 1,
        name: 'mylist',
        user_xids: 'user1,user2',
        project_id: project.id,
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
        path: `/${project.path}/-/feature_flags_user_lists/1`,
        edit_path: `/${project.path}/-/feature_flags_user_lists/1/edit`,
      });
      expect((await createList(project.base, 'second')).iid).toBe(2);
    });

    it('answers missing params with "message", not "error"', async () => {
      const project = await freshProject();
      expect(await app.post(project.base, { user_xids: 'user1' }, { token: 'developer' })).toMatchObject({ status: 400, body: { message: 'name is missing' } });
      expect(await app.post(project.base, { name: 'empty_list' }, { token: 'developer' })).toMatchObject({
        status: 400,
        body: { message: 'user_xids is missing' },
      });
      expect(await app.post(project.base, {}, { token: 'developer' })).toMatchObject({
        status: 400,
        body: { message: 'name is missing, user_xids is missing' },
      });
    });

    it('rejects a taken name, a blank or long name, and bad user ids', async () => {
      const project = await freshProject();
      await createList(project.base, 'myname');
      expect(await app.post(project.base, { name: 'myname', user_xids: 'a' }, { token: 'developer' })).toMatchObject({
        status: 400,
        body: { message: ['Name has already been taken'] },
      });
      expect((await app.post(project.base, { name: '', user_xids: 'a' }, { token: 'developer' })).body).toEqual({
        message: ["Name can't be blank", 'Name is too short (minimum is 1 character)'],
      });
      expect((await app.post(project.base, { name: 'n'.repeat(256), user_xids: 'a' }, { token: 'developer' })).body).toEqual({
        message: ['Name is too long (maximum is 255 characters)'],
      });
      for (const userXids of ['a,,b', 'a,a', ' a', 'a\tb', `${'x'.repeat(257)}`]) {
        const res = await app.post(project.base, { name: `bad-${userXids.length}-${userXids.charCodeAt(1)}`, user_xids: userXids }, { token: 'developer' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ message: ['User xids user_xids must be a string of unique comma separated values each 256 characters or less'] });
      }
    });

    it('accepts an empty id list and a trailing comma, as GitLab does', async () => {
      const project = await freshProject();
      expect((await createList(project.base, 'empty', '')).user_xids).toBe('');
      expect((await createList(project.base, 'trailing', 'a,b,')).user_xids).toBe('a,b,');
    });

    it('answers 403 to a reporter and 404 to a non-member, before validating', async () => {
      const project = await freshProject();
      expect(await app.post(project.base, { name: 'mylist', user_xids: 'user1' }, { token: 'reporter' })).toMatchObject({
        status: 403,
        body: { message: '403 Forbidden' },
      });
      expect(await app.post(project.base, {}, { token: 'reporter' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
      expect(await app.post(project.base, { name: 'mylist', user_xids: 'user1' }, { token: 'nonMember' })).toMatchObject({
        status: 404,
        body: { message: '404 Project Not Found' },
      });
      expect((await app.get(project.base, { token: 'developer' })).body).toEqual([]);
    });
  });

  describe('GET', () => {
    it("lists a project's lists by id, paginated", async () => {
      const project = await freshProject();
      const other = await freshProject();
      await createList(project.base, 'list_a');
      await createList(project.base, 'list_b', 'user1,user2,user3');
      await createList(other.base, 'other_list');
      const res = await app.get(project.base, { token: 'developer' });
      expect(res.status).toBe(200);
      expect(res.body.map((list: { name: string }) => list.name)).toEqual(['list_a', 'list_b']);
      const second = await app.get(project.base, { token: 'developer', query: { page: 2, per_page: 1 } });
      expect(second.body.map((list: { name: string }) => list.name)).toEqual(['list_b']);
      expect(second.headers.get('x-total')).toBe('2');
    });

    it('searches names by every word, case-insensitively', async () => {
      const project = await freshProject();
      await createList(project.base, 'test_list');
      await createList(project.base, 'list_b');
      await createList(project.base, 'Test_again');
      const names = async (search: string) =>
        (await app.get(project.base, { token: 'developer', query: { search } })).body.map((list: { name: string }) => list.name);
      expect(await names('test')).toEqual(['test_list', 'Test_again']);
      expect(await names('test list')).toEqual(['test_list']);
      expect(await names('"t_a"')).toEqual(['Test_again']);
      expect(await names('%')).toEqual([]);
      expect(await names('')).toEqual(['test_list', 'list_b', 'Test_again']);
    });

    it('answers a search of any length, on every database', async () => {
      const project = await freshProject();
      await createList(project.base, 'test_list');
      const res = await app.get(project.base, { token: 'developer', query: { search: 'x'.repeat(200_000) } });
      expect(res).toMatchObject({ status: 200, body: [] });
    });

    it('shows a list by iid and 404s an unknown iid', async () => {
      const project = await freshProject();
      await createList(project.base, 'list_a', 'test1');
      const listB = await createList(project.base, 'list_b', 'test2');
      const res = await app.get(`${project.base}/${listB.iid}`, { token: 'developer' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(listB);
      for (const iid of ['99', 'abc']) {
        expect(await app.get(`${project.base}/${iid}`, { token: 'developer' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
      }
    });

    it('answers 403 to a reporter and while the feature is off', async () => {
      const project = await freshProject();
      const list = await createList(project.base, 'mylist');
      expect((await app.get(project.base, { token: 'reporter' })).status).toBe(403);
      expect((await app.get(`${project.base}/${list.iid}`, { token: 'reporter' })).status).toBe(403);
      expect((await app.put(`/api/v4/projects/${project.id}`, { feature_flags_access_level: 'disabled' }, { token: 'owner' })).status).toBe(200);
      expect(await app.get(`${project.base}/${list.iid}`, { token: 'developer' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    });
  });

  describe('PUT', () => {
    it('updates the name and ids and keeps what is not sent', async () => {
      const project = await freshProject();
      const list = await createList(project.base, 'original_name', '123');
      const res = await app.put(`${project.base}/${list.iid}`, { name: 'mylist', user_xids: '456,789' }, { token: 'developer' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: list.id, iid: list.iid, name: 'mylist', user_xids: '456,789' });
      const unchanged = await app.put(`${project.base}/${list.iid}`, {}, { token: 'developer' });
      expect(unchanged.status).toBe(200);
      expect(unchanged.body).toEqual(res.body);
    });

    it('rejects a taken name and answers 404 for an unknown iid', async () => {
      const project = await freshProject();
      await createList(project.base, 'taken', '123');
      const list = await createList(project.base, 'original_name', '123');
      expect(await app.put(`${project.base}/${list.iid}`, { name: 'taken' }, { token: 'developer' })).toMatchObject({
        status: 400,
        body: { message: ['Name has already been taken'] },
      });
      expect(await app.put(`${project.base}/${list.iid + 1}`, { name: 'new_name' }, { token: 'developer' })).toMatchObject({
        status: 404,
        body: { message: '404 Not found' },
      });
    });

    it('answers 403 to a reporter and changes nothing', async () => {
      const project = await freshProject();
      const list = await createList(project.base, 'original_name');
      expect((await app.put(`${project.base}/${list.iid}`, { name: 'mylist' }, { token: 'reporter' })).status).toBe(403);
      expect((await app.get(`${project.base}/${list.iid}`, { token: 'developer' })).body.name).toBe('original_name');
    });
  });

  describe('DELETE', () => {
    it('answers 204 and does not reuse the iid', async () => {
      const project = await freshProject();
      const list = await createList(project.base, 'mylist');
      const res = await app.delete(`${project.base}/${list.iid}`, { token: 'developer' });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await app.get(`${project.base}/${list.iid}`, { token: 'developer' })).status).toBe(404);
      expect((await createList(project.base, 'next')).iid).toBe(list.iid + 1);
    });

    it('answers 409 while a strategy uses the list, and 204 once it no longer does', async () => {
      const project = await freshProject();
      const list = await createList(project.base, 'in-use');
      const flags = `/api/v4/projects/${project.id}/feature_flags`;
      const flag = await app.post(
        flags,
        { name: 'uses-list', strategies: [{ name: 'serviceUserList', parameters: {}, user_list_id: list.id }] },
        { token: 'developer' },
      );
      expect(flag.status).toBe(201);
      const res = await app.delete(`${project.base}/${list.iid}`, { token: 'developer' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: ['User list is associated with a strategy'] });
      await app.put(`${flags}/uses-list`, { strategies: [{ id: flag.body.strategies[0].id, _destroy: true }] }, { token: 'developer' });
      expect((await app.delete(`${project.base}/${list.iid}`, { token: 'developer' })).status).toBe(204);
    });

    it('answers 404 for an unknown iid and 403 for a reporter', async () => {
      const project = await freshProject();
      expect(await app.delete(`${project.base}/1`, { token: 'developer' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
      const list = await createList(project.base, 'mylist');
      expect((await app.delete(`${project.base}/${list.iid}`, { token: 'reporter' })).status).toBe(403);
      expect((await app.get(`${project.base}/${list.iid}`, { token: 'developer' })).status).toBe(200);
    });
  });
});

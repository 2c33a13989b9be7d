import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Ids past what an id column holds (PostgreSQL's `integer`), and past what a JavaScript number holds exactly. */
const UNHELD = ['2147483648', '9223372036854775808', `1${'0'.repeat(40)}`];

describe('ids no record can have', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it('are not found, for every caller and on every database', async () => {
    for (const id of UNHELD) {
      for (const token of [null, 'developer', 'admin']) {
        const answers = {
          project: (await app.get(`/api/v4/projects/${id}`, { token })).status,
          projectDelete: (await app.delete(`/api/v4/projects/${id}`, { token })).status,
          group: (await app.get(`/api/v4/groups/${id}`, { token })).status,
          groupMembers: (await app.get(`/api/v4/groups/${id}/members/all`, { token })).status,
        };
        expect({ id, token, answers }).toEqual({
          id,
          token,
          answers: { project: 404, projectDelete: token ? 404 : 401, group: 404, groupMembers: token ? 404 : 401 },
        });
      }
      expect((await app.get(`/api/v4/namespaces/${id}`, { token: 'developer' })).status).toBe(404);
    }
    expect((await app.get('/api/v4/namespaces/test-group/exists?parent_id=2147483648', { token: 'developer' })).body).toEqual({ exists: false, suggests: [] });
  });

  it('name no user or token, on every database', async () => {
    for (const id of ['2147483648', '-2147483649']) {
      const answers = {
        user: (await app.get(`/api/v4/users/${id}`, { token: 'admin' })).body,
        activate: (await app.post(`/api/v4/users/${id}/activate`, undefined, { token: 'admin' })).body,
        token: (await app.get(`/api/v4/personal_access_tokens/${id}`, { token: 'admin' })).status,
        revoke: (await app.delete(`/api/v4/personal_access_tokens/${id}`, { token: 'admin' })).status,
        sudo: (await app.get('/api/v4/user', { token: 'admin', headers: { Sudo: id } })).status,
      };
      expect({ id, answers }).toEqual({
        id,
        answers: { user: { message: '404 User Not Found' }, activate: { message: '404 User Not Found' }, token: 404, revoke: 404, sudo: 404 },
      });
    }
  });

  it('name no member, on every database', async () => {
    for (const source of [`projects/${app.project.id}`, `groups/${app.group.id}`]) {
      for (const id of ['2147483648', '-2147483649']) {
        const base = `/api/v4/${source}/members`;
        const answers = {
          one: (await app.get(`${base}/${id}`, { token: 'admin' })).status,
          inherited: (await app.get(`${base}/all/${id}`, { token: 'admin' })).status,
          update: (await app.put(`${base}/${id}`, { access_level: 30 }, { token: 'admin' })).status,
          remove: (await app.delete(`${base}/${id}`, { token: 'admin' })).status,
          list: (await app.get(`${base}?user_ids=${id}`, { token: 'admin' })).body,
          listAll: (await app.get(`${base}/all?user_ids[]=${id}`, { token: 'admin' })).body,
        };
        expect({ source, id, answers }).toEqual({ source, id, answers: { one: 404, inherited: 404, update: 404, remove: 404, list: [], listAll: [] } });
      }
    }
  });
});

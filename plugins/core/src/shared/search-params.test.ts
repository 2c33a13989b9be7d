import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Every search parameter of the core routes, as an admin sees it. */
const SEARCHES = (app: TestApp): [string, string][] => [
  ['/api/v4/users', 'search'],
  ['/api/v4/groups', 'search'],
  ['/api/v4/projects', 'search'],
  ['/api/v4/projects', 'topic'],
  [`/api/v4/groups/${app.group.id}/projects`, 'search'],
  ['/api/v4/namespaces', 'search'],
  [`/api/v4/projects/${app.project.id}/members/all`, 'query'],
  [`/api/v4/groups/${app.group.id}/members`, 'query'],
  ['/api/v4/personal_access_tokens', 'search'],
];

describe('search parameters', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
    const res = await app.put(`/api/v4/projects/${app.project.id}`, { topics: ['Tools'] }, { token: 'admin' });
    expect(res.status).toBe(200);
  });
  afterAll(() => app.close());

  it('answers a search text of any length with an empty page, on every database', async () => {
    for (const [path, name] of SEARCHES(app)) {
      const res = await app.get(path, { token: 'admin', query: { [name]: 'x'.repeat(200_000) } });
      expect({ path, name, status: res.status, body: res.body }).toEqual({ path, name, status: 200, body: [] });
    }
  });

  it('matches case-insensitively and takes % and _ literally, as GitLab escapes them', async () => {
    const found = async (path: string, query: Record<string, string>) =>
      (await app.get(path, { token: 'admin', query })).body.map((row: { id: number }) => row.id);
    expect(await found('/api/v4/groups', { search: 'TEST-gr' })).toEqual([app.group.id]);
    expect(await found('/api/v4/groups', { search: 'test_group' })).toEqual([]);
    expect(await found('/api/v4/projects', { search: 'Test%Project' })).toEqual([]);
    expect(await found('/api/v4/projects', { search: 'TEST-PROJ' })).toEqual([app.project.id]);
    expect(await found('/api/v4/projects', { topic: 'tools' })).toEqual([app.project.id]);
    expect(await found('/api/v4/namespaces', { search: 'test_' })).toEqual([]);
    expect(await found('/api/v4/users', { search: 'Develop' })).toEqual([app.users.developer.id]);
    expect(await found('/api/v4/users', { search: 'dev_loper' })).toEqual([]);
  });
});

/**
 * An archived project takes no writes: every write route of the route table under
 * `/projects/:id/` answers 403 on it and changes nothing, except the routes that
 * administer the project itself, which name core's guard in `exemptFrom`.
 */
import { ARCHIVED_PROJECT_GUARD } from '@forgekit/plugin-core/contracts';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allPlugins } from '../plugins.js';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The writes an archived project still takes, as GitLab's project policy allows them. */
const STILL_WRITABLE = [
  'POST /api/v4/projects/:id/archive',
  'POST /api/v4/projects/:id/unarchive',
  'POST /api/v4/projects/:id/members',
  'PUT /api/v4/projects/:id/members/:user_id',
  'DELETE /api/v4/projects/:id/members/:user_id',
  // Invitations administer members, as the member routes do.
  'POST /api/v4/projects/:id/invitations',
  'PUT /api/v4/projects/:id/invitations/:email',
  'DELETE /api/v4/projects/:id/invitations/:email',
  'PUT /api/v4/projects/:id/repository/branches/:branch/protect',
  'PUT /api/v4/projects/:id/repository/branches/:branch/unprotect',
  'POST /api/v4/projects/:id/protected_branches',
  'PATCH /api/v4/projects/:id/protected_branches/:name',
  'DELETE /api/v4/projects/:id/protected_branches/:name',
  'POST /api/v4/projects/:id/repository_storage_moves',
  'POST /api/v4/projects/:id/labels/:label_id/subscribe',
  'POST /api/v4/projects/:id/labels/:label_id/unsubscribe',
  // Deploy keys need `admin_project`, which GitLab's archived rule leaves alone.
  'POST /api/v4/projects/:id/deploy_keys',
  'PUT /api/v4/projects/:id/deploy_keys/:key_id',
  'POST /api/v4/projects/:id/deploy_keys/:key_id/enable',
  'DELETE /api/v4/projects/:id/deploy_keys/:key_id',
  'POST /api/v4/projects/:id/badges',
  'PUT /api/v4/projects/:id/badges/:badge_id',
  'DELETE /api/v4/projects/:id/badges/:badge_id',
  'DELETE /api/v4/projects/:id/uploads/:upload_id',
  // Hooks need `admin_project` too.
  'POST /api/v4/projects/:id/hooks',
  'PUT /api/v4/projects/:id/hooks/:hook_id',
  'DELETE /api/v4/projects/:id/hooks/:hook_id',
  'PUT /api/v4/projects/:id/hooks/:hook_id/custom_headers/:key',
  'DELETE /api/v4/projects/:id/hooks/:hook_id/custom_headers/:key',
  'PUT /api/v4/projects/:id/hooks/:hook_id/url_variables/:key',
  'DELETE /api/v4/projects/:id/hooks/:hook_id/url_variables/:key',
  'POST /api/v4/projects/:id/hooks/:hook_id/events/:hook_event_id/resend',
  'POST /api/v4/projects/:id/hooks/:hook_id/test/:trigger',
  'DELETE /api/v4/projects/:id/uploads/:upload_id/:filename',
];

let app: TestApp;
let base: string;
let issueIid: number;

const state = async () => ({
  issues: (await app.get(`${base}/issues`, { token: 'admin' })).body.map((issue: { iid: number; title: string }) => [issue.iid, issue.title]),
  labels: (await app.get(`${base}/labels`, { token: 'admin' })).body.map((label: { name: string }) => label.name),
  milestones: (await app.get(`${base}/milestones`, { token: 'admin' })).body.map((milestone: { title: string }) => milestone.title),
  variables: (await app.get(`${base}/variables`, { token: 'admin' })).body.map((variable: { key: string }) => variable.key),
  branches: (await app.get(`${base}/repository/branches`, { token: 'admin' })).body.map((branch: { name: string }) => branch.name),
});

beforeAll(async () => {
  app = await createTestApp({ plugins: allPlugins });
  base = `/api/v4/projects/${app.project.id}`;
  const seed = async (path: string, body: Record<string, unknown>) => {
    const res = await app.post(`${base}${path}`, body, { token: 'admin' });
    if (res.status !== 201) throw new Error(`seeding ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  await seed('/repository/commits', { branch: 'main', commit_message: 'Start', actions: [{ action: 'create', file_path: 'README.md', content: 'x\n' }] });
  issueIid = (await seed('/issues', { title: 'Before archiving' })).iid;
  await seed('/labels', { name: 'kept', color: '#FF0000' });
  await seed('/milestones', { title: 'v1' });
  await seed('/variables', { key: 'KEPT', value: 'v' });
  expect((await app.post(`${base}/archive`, {}, { token: 'admin' })).status).toBe(201);
});
afterAll(() => app.close());

describe('an archived project', () => {
  it('refuses the reproductions: issue create and update, label create', async () => {
    const before = await state();
    for (const token of ['admin', 'owner', 'developer']) {
      expect(await app.post(`${base}/issues`, { title: 'After archiving' }, { token })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
      expect(await app.put(`${base}/issues/${issueIid}`, { title: 'Renamed' }, { token })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
      expect(await app.post(`${base}/labels`, { name: 'new', color: '#00FF00' }, { token })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    }
    expect(await state()).toEqual(before);
  });

  it('answers 403 to every write route of the route table under /projects/:id/, and nothing changes', async () => {
    const before = await state();
    const guarded = app.kernel.routes.filter(
      (route) => WRITES.has(route.method) && route.path.startsWith('/api/v4/projects/:id/') && !route.exemptFrom.includes(ARCHIVED_PROJECT_GUARD),
    );
    expect(guarded.length).toBeGreaterThan(40);
    for (const route of guarded) {
      const path = route.path.replace(':id', String(app.project.id)).replace(/:[a-z_]+/g, '1');
      for (const token of ['admin', 'developer']) {
        const res = await app.request(route.method, path, { token, body: { title: 'x', name: 'x', key: 'X', value: 'v' } });
        expect({ route: `${route.method} ${route.path}`, token, status: res.status, body: res.body }).toEqual({
          route: `${route.method} ${route.path}`,
          token,
          status: 403,
          body: { message: '403 Forbidden' },
        });
      }
    }
    expect(await state()).toEqual(before);
  });

  it('still takes the writes that administer the project itself, and only those', () => {
    const exempt = app.kernel.routes
      .filter((route) => route.path.startsWith('/api/v4/projects/:id/') && route.exemptFrom.includes(ARCHIVED_PROJECT_GUARD))
      .map((route) => `${route.method} ${route.path}`);
    expect(exempt.sort()).toEqual([...STILL_WRITABLE].sort());
  });

  it('hides itself from strangers as before: 404, not 403', async () => {
    expect(await app.post(`${base}/issues`, { title: 'x' }, { token: 'nonMember' })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
  });

  it('takes writes again once unarchived', async () => {
    expect((await app.post(`${base}/unarchive`, {}, { token: 'admin' })).status).toBe(201);
    expect(await app.post(`${base}/issues`, { title: 'After unarchiving' }, { token: 'developer' })).toMatchObject({ status: 201 });
    expect((await app.post(`${base}/archive`, {}, { token: 'admin' })).status).toBe(201);
  });
});

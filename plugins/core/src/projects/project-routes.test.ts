import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/testing';

describe('projects', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app?.close());

  it('shows a project to a member with permissions', async () => {
    const res = await app.get(`/api/v4/projects/${app.project.id}`, { token: 'developer' });
    expect(res.status).toBe(200);
    expect(res.body.path_with_namespace).toBe('test-group/test-project');
    expect(res.body.permissions).toEqual({ project_access: null, group_access: { access_level: 30, notification_level: 3 } });
  });

  it('finds a project by its encoded full path', async () => {
    const res = await app.get('/api/v4/projects/test-group%2Ftest-project', { token: 'reporter' });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(app.project.id);
  });

  it('hides a private project from non-members with 404', async () => {
    const res = await app.get(`/api/v4/projects/${app.project.id}`, { token: 'nonMember' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: '404 Project Not Found' });
  });
});

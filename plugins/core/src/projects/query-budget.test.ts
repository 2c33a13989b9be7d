import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { recordStatements, type StatementLog } from '@forgekit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The hot reads: the token (1), the project with the caller's levels (1), and the data. */
describe('SQL statements per request', () => {
  let app: TestApp;
  let log: StatementLog;

  const measure = (path: string, query?: Record<string, string>) =>
    log.during(async () => expect((await app.get(path, { token: 'maintainer', query })).status).toBe(200));

  beforeAll(async () => {
    app = await createTestApp();
    for (let i = 0; i < 21; i++) {
      await app.post('/api/v4/projects', { name: `budget-${i}`, namespace_id: app.group.id }, { token: 'owner' });
    }
    // A used token is not touched again for a while, as on a running server.
    await app.get('/api/v4/user', { token: 'maintainer' });
    log = recordStatements(app.kernel);
  });
  afterAll(async () => {
    log?.stop();
    await app?.close();
  });

  it('GET /projects/:id: the token and the project with the caller levels', async () => {
    const sql = await measure(`/api/v4/projects/${app.project.id}`);
    expect(sql.length, sql.join('\n')).toBeLessThanOrEqual(2);
  });

  it('GET /projects/:id by path costs one more lookup at most', async () => {
    const sql = await measure(`/api/v4/projects/${encodeURIComponent('test-group/test-project')}`);
    expect(sql.length, sql.join('\n')).toBeLessThanOrEqual(3);
  });

  it('GET /projects, a full page of 20: the token, the page with its total, and the caller levels', async () => {
    const sql = await measure('/api/v4/projects', { per_page: '20' });
    expect(sql.length, sql.join('\n')).toBeLessThanOrEqual(3);
  });
});

import { createTestApp, type TestApp } from '@forgekit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The hot reads: the token (1), the project with the caller's levels (1), and the data. */
describe('SQL statements per request', () => {
  let app: TestApp;
  const statements: string[] = [];
  const record = (query: { sql: string }) => statements.push(query.sql);
  let stopObserving: (() => void) | undefined;

  async function measure(path: string, query?: Record<string, string>) {
    statements.length = 0;
    const res = await app.get(path, { token: 'maintainer', query });
    expect(res.status).toBe(200);
    // The token's last-use stamp is written at most once a minute, after the answer, and the
    // warm-up's stamp may still be on its way: it is bookkeeping, not a statement of this request.
    return statements.filter((sql) => !/^update .personal_access_tokens./.test(sql));
  }

  beforeAll(async () => {
    app = await createTestApp();
    for (let i = 0; i < 21; i++) {
      await app.post('/api/v4/projects', { name: `budget-${i}`, namespace_id: app.group.id }, { token: 'owner' });
    }
    // A used token is not touched again for a while, as on a running server.
    await app.get('/api/v4/user', { token: 'maintainer' });
    app.kernel.database.knex.on('query', record);
    stopObserving = app.kernel.database.observeReads((sql) => statements.push(sql));
  });
  afterAll(async () => {
    app?.kernel.database.knex.off('query', record);
    stopObserving?.();
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

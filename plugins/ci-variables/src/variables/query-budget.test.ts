import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { recordStatements, type StatementLog } from '@forgekit/testing';
import { planLimitsPlugin } from '@forgekit/plugin-plan-limits';
import { ciVariablesPlugin } from '../plugin.js';

/** The hot paths stay within auth (1) + project with the caller's levels (1) + data (1), plus a count only when a page is full. */
describe('SQL statements per request', () => {
  let app: TestApp;
  let base: string;
  let log: StatementLog;

  const measure = (run: () => Promise<{ status: number }>, status: number) => log.during(async () => expect((await run()).status).toBe(status));

  beforeAll(async () => {
    app = await createTestApp({ plugins: [planLimitsPlugin, ciVariablesPlugin] });
    base = `/api/v4/projects/${app.project.id}/variables`;
    // Warm the plan-limit cache, as a running server has.
    await app.post(base, { key: 'WARM', value: 'x' }, { token: 'maintainer' });
    log = recordStatements(app.kernel);
  });
  afterAll(async () => {
    log?.stop();
    await app?.close();
  });

  it('POST /projects/:id/variables: auth, project and one guarded insert', async () => {
    const sql = await measure(() => app.post(base, { key: 'HOT', value: 'value' }, { token: 'maintainer' }), 201);
    // On PostgreSQL the guard is a transaction under an advisory lock, with its two checks.
    const control = /^(begin|commit|select pg_advisory_xact_lock)/i;
    const work = sql.filter((s) => !control.test(s));
    expect(work.length, sql.join('\n')).toBeLessThanOrEqual(process.env.FORGEKIT_TEST_DATABASE_URL ? 5 : 3);
    expect(sql.filter((s) => s.startsWith('insert'))).toHaveLength(1);
  });

  it('GET /projects/:id/variables', async () => {
    const sql = await measure(() => app.get(base, { token: 'maintainer' }), 200);
    expect(sql.length, sql.join('\n')).toBeLessThanOrEqual(3);
    expect(sql.some((s) => s.includes('count('))).toBe(false);
  });

  it('GET /projects/:id/variables counts only for a full page', async () => {
    const sql = await measure(() => app.get(base, { token: 'maintainer', query: { per_page: 1 } }), 200);
    expect(sql.length, sql.join('\n')).toBeLessThanOrEqual(4);
    expect(sql.filter((s) => s.includes('count('))).toHaveLength(1);
  });
});

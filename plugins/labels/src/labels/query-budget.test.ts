import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { recordStatements, type StatementLog } from '@forgekit/testing';
import { labelsPlugin } from '../plugin.js';

/** Lists stay within auth, the group or project with the caller's levels, and the labels with the caller's subscriptions (and a project's priorities). */
describe('SQL statements per label list', () => {
  let app: TestApp;
  let log: StatementLog;

  const measure = (path: string, query: Record<string, string | number | boolean>) =>
    log.during(async () => expect((await app.get(path, { token: 'guest', query })).status).toBe(200));

  beforeAll(async () => {
    app = await createTestApp({ plugins: [labelsPlugin] });
    for (let i = 1; i <= 3; i++) {
      await app.post(`/api/v4/groups/${app.group.id}/labels`, { name: `group-${i}`, color: '#123456', description: `**${i}**` }, { token: 'owner' });
      await app.post(`/api/v4/projects/${app.project.id}/labels`, { name: `project-${i}`, color: '#123456' }, { token: 'owner' });
    }
    log = recordStatements(app.kernel);
  });
  afterAll(async () => {
    log?.stop();
    await app?.close();
  });

  it('GET /groups/:id/labels?with_counts=true', async () => {
    const sql = await measure(`/api/v4/groups/${app.group.id}/labels`, { with_counts: true });
    expect(sql.length, sql.join('\n')).toBeLessThanOrEqual(4);
    expect(sql.some((s) => s.includes('count('))).toBe(false);
  });

  it('GET /groups/:id/labels counts only for a full page', async () => {
    const sql = await measure(`/api/v4/groups/${app.group.id}/labels`, { per_page: 1 });
    expect(sql.length, sql.join('\n')).toBeLessThanOrEqual(5);
    expect(sql.filter((s) => s.includes('count('))).toHaveLength(1);
  });

  it('GET /projects/:id/labels', async () => {
    const sql = await measure(`/api/v4/projects/${app.project.id}/labels`, {});
    expect(sql.length, sql.join('\n')).toBeLessThanOrEqual(4);
  });
});

import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { recordStatements, type StatementLog } from '@forgekit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badgesPlugin } from '../plugin.js';

/**
 * A project's badge list, on every project page: auth (1) + project with the caller's levels
 * (1) + badges (1), plus the repository record (1) only when a URL names a repository
 * placeholder, and a count only when a page is full.
 */
describe('SQL statements per request', () => {
  let app: TestApp;
  let plain: string;
  let withRepository: string;
  let log: StatementLog;

  const measure = (path: string, query?: Record<string, string | number>) =>
    log.during(async () => expect((await app.get(path, { token: 'guest', query })).status).toBe(200));

  beforeAll(async () => {
    app = await createTestApp({ plugins: [repositoriesPlugin, badgesPlugin] });
    const project = (
      await app.post('/api/v4/projects', { name: 'Repo', path: 'repo', namespace_id: app.group.id, initialize_with_readme: true }, { token: 'owner' })
    ).body;
    plain = `/api/v4/projects/${app.project.id}/badges`;
    withRepository = `/api/v4/projects/${project.id}/badges`;
    await app.post(
      `/api/v4/groups/${app.group.id}/badges`,
      { link_url: 'https://x/%{project_path}', image_url: 'https://x/%{project_id}.svg' },
      { token: 'owner' },
    );
    for (let i = 0; i < 3; i++) {
      await app.post(plain, { link_url: `https://x/%{project_path}/${i}`, image_url: 'https://x/%{project_name}.svg' }, { token: 'maintainer' });
      await app.post(withRepository, { link_url: `https://x/%{commit_sha}/${i}`, image_url: 'https://x/%{default_branch}.svg' }, { token: 'owner' });
    }
    // The token's first use records `last_used_at` in the background: let that land before counting.
    await app.get(plain, { token: 'guest' });
    let touched = false;
    for (let tries = 0; tries < 1000 && !touched; tries++) {
      touched = !!(await app.get('/api/v4/personal_access_tokens/self', { token: 'guest' })).body.last_used_at;
      if (!touched) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(touched).toBe(true);
    log = recordStatements(app.kernel);
  });
  afterAll(async () => {
    log?.stop();
    await app?.close();
  });

  it('GET /projects/:id/badges with project placeholders: auth, project, badges', async () => {
    const sql = await measure(plain);
    expect(sql.length, sql.join('\n')).toBeLessThanOrEqual(3);
  });

  it('GET /projects/:id/badges with repository placeholders: one more, for the repository', async () => {
    const sql = await measure(withRepository);
    expect(sql.length, sql.join('\n')).toBeLessThanOrEqual(4);
    expect(sql.some((s) => s.includes('count('))).toBe(false);
  });

  it('counts only for a full page', async () => {
    const sql = await measure(plain, { per_page: 2 });
    expect(sql.length, sql.join('\n')).toBeLessThanOrEqual(4);
    expect(sql.filter((s) => s.includes('count('))).toHaveLength(1);
  });
});

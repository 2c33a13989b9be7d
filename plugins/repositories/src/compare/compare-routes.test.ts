import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { commitFiles, createRepoTestApp } from '../testing/repo-test-app.js';

describe('GET /projects/:id/repository/compare', () => {
  let app: TestApp;
  let url: string;
  let base: { id: string };
  let feature: { id: string };

  beforeAll(async () => {
    app = await createRepoTestApp();
    url = `/api/v4/projects/${app.project.id}/repository/compare`;
    base = await commitFiles(app, app.project.id, { 'a.txt': 'one\n' }, { message: 'Base' });
    await commitFiles(app, app.project.id, { 'a.txt': 'one\ntwo\n', 'b.txt': 'b\n' }, { branch: 'feature', startBranch: 'main', message: 'Feature one' });
    feature = await commitFiles(app, app.project.id, { 'c.txt': 'c\n' }, { branch: 'feature', message: 'Feature two' });
    await commitFiles(app, app.project.id, { 'main.txt': 'm\n' }, { message: 'Main moves on' });
  });
  afterAll(() => app.close());

  it('compares from the merge base: commits oldest first, the newest as `commit`, and diffs', async () => {
    const res = await app.get(url, { token: 'reporter', query: { from: 'main', to: 'feature' } });
    expect(res.status).toBe(200);
    expect(res.body.commits.map((commit: { title: string }) => commit.title)).toEqual(['Feature one', 'Feature two']);
    expect(res.body.commit.id).toBe(feature.id);
    expect(res.body.diffs.map((diff: { new_path: string }) => diff.new_path)).toEqual(['a.txt', 'b.txt', 'c.txt']);
    expect(res.body.diffs[0]).toMatchObject({ old_path: 'a.txt', new_file: false, diff: '@@ -1 +1,2 @@\n one\n+two\n' });
    expect(res.body.diffs[1]).toMatchObject({ new_file: true, a_mode: '0', b_mode: '100644' });
    expect(res.body).toMatchObject({
      compare_timeout: false,
      compare_same_ref: false,
      web_url: 'http://localhost/test-group/test-project/-/compare/main...feature',
    });
  });

  it('compares straight from one ref to the other', async () => {
    const res = await app.get(url, { token: 'reporter', query: { from: 'main', to: 'feature', straight: 'true' } });
    expect(res.body.diffs.map((diff: { new_path: string; deleted_file: boolean }) => [diff.new_path, diff.deleted_file])).toContainEqual(['main.txt', true]);
    expect(res.body.web_url).toBe('http://localhost/test-group/test-project/-/compare/main..feature');
  });

  it('reports the same ref with no commits', async () => {
    const res = await app.get(url, { token: 'reporter', query: { from: base.id, to: base.id } });
    expect(res.body).toMatchObject({ commit: null, commits: [], diffs: [], compare_same_ref: true });
  });

  it('answers GitLab’s errors', async () => {
    expect(await app.get(url, { token: 'reporter', query: { from: 'nope', to: 'main' } })).toMatchObject({
      status: 404,
      body: { message: '404 Ref Not Found' },
    });
    expect(await app.get(url, { token: 'reporter', query: { from: 'main' } })).toMatchObject({ status: 400, body: { error: 'to is missing' } });
    expect(await app.get(url, { token: 'reporter', query: { from: 'main', to: 'feature', from_project_id: 999 } })).toMatchObject({
      status: 400,
      body: { message: `Target project id:999 is not a fork of project id:${app.project.id}` },
    });
    expect(await app.get(url, { token: 'guest', query: { from: 'main', to: 'feature' } })).toMatchObject({ status: 403 });
  });
});

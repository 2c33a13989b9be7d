import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { commitFiles, createRepoTestApp } from '../testing/repo-test-app.js';

describe('branches', () => {
  let app: TestApp;
  let url: string;
  let main: { id: string };

  beforeAll(async () => {
    app = await createRepoTestApp();
    url = `/api/v4/projects/${app.project.id}/repository/branches`;
  });
  afterAll(() => app.close());

  it('creating a branch in an empty repository first commits a README to the default branch', async () => {
    const res = await app.post(url, { branch: 'first', ref: 'main' }, { token: 'maintainer' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'first',
      merged: false,
      protected: false,
      default: false,
      can_push: true,
      developers_can_push: false,
      developers_can_merge: false,
    });
    expect(res.body.commit.title).toBe('Add README.md');
    expect(res.body.web_url).toBe('http://localhost/test-group/test-project/-/tree/first');
    main = await commitFiles(app, app.project.id, { 'a.txt': 'a\n' });
  });

  it('creates a branch from a sha, a branch or a tag', async () => {
    const fromSha = await app.post(url, { branch: 'from-sha', ref: main.id }, { token: 'maintainer' });
    expect(fromSha.body.commit.id).toBe(main.id);
    const fromBranch = await app.post(url, { branch: 'feature/nested', ref: 'main' }, { token: 'maintainer' });
    expect(fromBranch.status).toBe(201);
    expect(fromBranch.body.commit.id).toBe(main.id);
  });

  it('refuses bad names, existing branches and unknown refs with GitLab’s messages', async () => {
    expect(await app.post(url, { branch: 'bad..name', ref: 'main' }, { token: 'maintainer' })).toMatchObject({
      status: 400,
      body: { message: 'Branch name is invalid' },
    });
    expect(await app.post(url, { branch: 'first', ref: 'main' }, { token: 'maintainer' })).toMatchObject({
      status: 400,
      body: { message: 'Branch already exists' },
    });
    expect(await app.post(url, { branch: 'new', ref: 'nope' }, { token: 'maintainer' })).toMatchObject({
      status: 400,
      body: { message: "Failed to create branch 'new': invalid reference name 'nope'" },
    });
    expect(await app.post(url, { branch: '', ref: '' }, { token: 'maintainer' })).toMatchObject({
      status: 400,
      body: { error: 'branch is empty, ref is empty' },
    });
    expect(await app.post(url, {}, { token: 'maintainer' })).toMatchObject({
      status: 400,
      body: { error: 'branch is missing, branch is empty, ref is missing, ref is empty' },
    });
  });

  it('lists branches by name with merge state, search and pagination', async () => {
    const res = await app.get(url, { token: 'reporter' });
    expect(res.status).toBe(200);
    expect(res.body.map((branch: { name: string }) => branch.name)).toEqual(['feature/nested', 'first', 'from-sha', 'main']);
    const byName = Object.fromEntries(res.body.map((branch: { name: string }) => [branch.name, branch]));
    expect(byName.main).toMatchObject({ default: true, merged: false, can_push: false });
    expect(byName.first.merged).toBe(true);
    expect(byName['from-sha'].merged).toBe(false);
    expect(res.headers.get('x-total')).toBe('4');
    expect((await app.get(url, { token: 'reporter', query: { search: 'fir' } })).body.map((b: { name: string }) => b.name)).toEqual(['first']);
    expect((await app.get(url, { token: 'reporter', query: { search: '^f' } })).body).toHaveLength(3);
    expect((await app.get(url, { token: 'reporter', query: { search: 'sha$' } })).body.map((b: { name: string }) => b.name)).toEqual(['from-sha']);
    const paged = await app.get(url, { token: 'reporter', query: { per_page: 3, page: 2 } });
    expect(paged.body.map((b: { name: string }) => b.name)).toEqual(['main']);
  });

  it('filters by a regex with RE2, which answers patterns that stall backtracking engines', async () => {
    expect((await app.get(url, { token: 'reporter', query: { regex: '^f.*[dt]$' } })).body.map((b: { name: string }) => b.name)).toEqual([
      'feature/nested',
      'first',
    ]);
    // A backtracking engine takes about 2^40 steps for this pattern on this name.
    const name = `${'a'.repeat(40)}b`;
    expect((await app.post(url, { branch: name, ref: 'main' }, { token: 'maintainer' })).status).toBe(201);
    try {
      const hostile = await app.get(url, { token: 'reporter', query: { regex: '^(a|a?)+$' } });
      expect(hostile.status).toBe(200);
      expect(hostile.body).toEqual([]);
      expect((await app.get(url, { token: 'reporter', query: { regex: '^(a|a?)+b$' } })).body.map((b: { name: string }) => b.name)).toEqual([name]);
    } finally {
      await app.delete(`${url}/${name}`, { token: 'maintainer' });
    }
    expect((await app.get(url, { token: 'reporter', query: { regex: '(' } })).body).toEqual([]);
  });

  it('shows one branch (names with slashes encoded) or 404 Branch Not Found', async () => {
    const res = await app.get(`${url}/feature%2Fnested`, { token: 'reporter' });
    expect(res.body).toMatchObject({ name: 'feature/nested', commit: { id: main.id } });
    expect(await app.get(`${url}/nope`, { token: 'reporter' })).toMatchObject({ status: 404, body: { message: '404 Branch Not Found' } });
  });

  it('deletes a branch, but not the default one', async () => {
    expect((await app.delete(`${url}/from-sha`, { token: 'maintainer' })).status).toBe(204);
    expect((await app.get(`${url}/from-sha`, { token: 'reporter' })).status).toBe(404);
    expect(await app.delete(`${url}/from-sha`, { token: 'maintainer' })).toMatchObject({ status: 404, body: { message: '404 Branch Not Found' } });
    expect(await app.delete(`${url}/main`, { token: 'maintainer' })).toMatchObject({
      status: 400,
      body: { message: 'The default branch of a project cannot be deleted.' },
    });
  });

  it('checks roles: reporters read, developers write, strangers see nothing', async () => {
    expect(await app.post(url, { branch: 'r', ref: 'main' }, { token: 'reporter' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await app.delete(`${url}/first`, { token: 'reporter' })).toMatchObject({ status: 403 });
    expect(await app.get(url, { token: 'guest' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await app.get(url, { token: 'nonMember' })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await app.get(url)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
  });
});

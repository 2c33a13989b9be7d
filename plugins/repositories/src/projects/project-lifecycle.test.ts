import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kernelServices } from '@forgekit/kernel';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { repositoriesServiceRef } from '../contracts.js';
import { createRepoTestApp } from '../testing/repo-test-app.js';

describe('project repositories', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createRepoTestApp({ config: { plugins: { repositories: { storages: { second: 'second-storage' } } } } });
  });
  afterAll(() => app.close());

  const create = (body: Record<string, unknown>) => app.post('/api/v4/projects', { namespace_id: app.group.id, ...body }, { token: 'owner' });

  it('creates an empty bare repository with the project', async () => {
    const res = await create({ name: 'Plain' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ empty_repo: true, default_branch: 'main', http_url_to_repo: 'http://localhost/test-group/plain.git' });
    const repository = await app.kernel.resolve(repositoriesServiceRef).find({ kind: 'project', containerId: res.body.id });
    expect(repository).toMatchObject({ storage: 'default', readOnly: false });
    expect(existsSync(join(repository!.gitDir, 'HEAD'))).toBe(true);
    expect(repository!.diskPath).toMatch(/^@hashed\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.git$/);
  });

  it('initializes with a README on the requested default branch', async () => {
    const res = await create({ name: 'Readme', description: 'Has a readme', initialize_with_readme: true, default_branch: 'trunk' });
    expect(res.body).toMatchObject({ empty_repo: false, default_branch: 'trunk' });
    const readme = await app.get(`/api/v4/projects/${res.body.id}/repository/files/README.md/raw`, { token: 'owner' });
    expect(readme.text).toBe('# Readme\n\nHas a readme\n');
    const commit = await app.get(`/api/v4/projects/${res.body.id}/repository/commits/trunk`, { token: 'owner' });
    expect(commit.body).toMatchObject({ title: 'Initial commit', author_name: app.users.owner.name });
  });

  it('places new repositories by the storage weights', async () => {
    const settings = await app.get('/api/v4/application/settings', { token: 'admin' });
    expect(settings.body.repository_storages_weighted).toEqual({ default: 100 });
    const updated = await app.put('/api/v4/application/settings', { repository_storages_weighted: { default: 0, second: 100 } }, { token: 'admin' });
    expect(updated.body.repository_storages_weighted).toEqual({ default: 0, second: 100 });
    const res = await create({ name: 'Weighted' });
    const project = await app.get(`/api/v4/projects/${res.body.id}`, { token: 'admin' });
    expect(project.body.repository_storage).toBe('second');
    const repository = await app.kernel.resolve(repositoriesServiceRef).find({ kind: 'project', containerId: res.body.id });
    const { dataDir } = app.kernel.resolve(kernelServices.instance);
    expect(repository!.gitDir.startsWith(join(dataDir, 'second-storage'))).toBe(true);
    await app.put('/api/v4/application/settings', { repository_storages_weighted: { default: 100, second: 0 } }, { token: 'admin' });
  });

  it('keeps the storage an administrator chose', async () => {
    const res = await app.post('/api/v4/projects', { name: 'Chosen', namespace_id: app.group.id, repository_storage: 'second' }, { token: 'admin' });
    expect(res.body.repository_storage).toBe('second');
    expect((await app.kernel.resolve(repositoriesServiceRef).find({ kind: 'project', containerId: res.body.id }))!.storage).toBe('second');
  });

  it('validates the weights against the configured storages', async () => {
    expect(await app.put('/api/v4/application/settings', { repository_storages_weighted: { nowhere: 10 } }, { token: 'admin' })).toMatchObject({
      status: 400,
      body: { error: "repository_storages_weighted can't include: nowhere" },
    });
    expect(await app.put('/api/v4/application/settings', { repository_storages_weighted: { default: 101 } }, { token: 'admin' })).toMatchObject({
      status: 400,
      body: { error: "repository_storages_weighted value for 'default' must be between 0 and 100" },
    });
  });

  it('moves HEAD when the default branch changes, and removes the repository with the project', async () => {
    const res = await create({ name: 'Lifecycle', initialize_with_readme: true });
    const id = res.body.id;
    await app.post(`/api/v4/projects/${id}/repository/branches`, { branch: 'develop', ref: 'main' }, { token: 'owner' });
    await app.put(`/api/v4/projects/${id}`, { default_branch: 'develop' }, { token: 'owner' });
    const branches = await app.get(`/api/v4/projects/${id}/repository/branches`, { token: 'owner' });
    expect(branches.body.find((branch: { name: string }) => branch.name === 'develop').default).toBe(true);
    const repository = (await app.kernel.resolve(repositoriesServiceRef).find({ kind: 'project', containerId: id }))!;
    expect((await app.delete(`/api/v4/projects/${id}`, { token: 'owner' })).status).toBe(202);
    expect(existsSync(repository.gitDir)).toBe(false);
    expect(await app.kernel.resolve(repositoriesServiceRef).find({ kind: 'project', containerId: id })).toBeNull();
  });

  it('removes a group wiki repository with its group', async () => {
    const group = await app.post('/api/v4/groups', { name: 'Wiki Owner', path: 'wiki-owner' }, { token: 'admin' });
    expect(group.status).toBe(201);
    const repos = app.kernel.resolve(repositoriesServiceRef);
    const wiki = await repos.ensure({ kind: 'group_wiki', containerId: group.body.id });
    expect(existsSync(wiki.gitDir)).toBe(true);
    expect((await app.delete(`/api/v4/groups/${group.body.id}`, { token: 'admin' })).status).toBe(202);
    expect(existsSync(wiki.gitDir)).toBe(false);
    expect(await repos.find({ kind: 'group_wiki', containerId: group.body.id })).toBeNull();
  });

  it('lets anyone read the code of a public project, and nobody when the repository feature is off', async () => {
    const res = await app.post('/api/v4/projects', { name: 'Open', visibility: 'public', initialize_with_readme: true }, { token: 'owner' });
    expect(res.status).toBe(201);
    const url = `/api/v4/projects/${res.body.id}/repository/tree`;
    expect((await app.get(url)).status).toBe(200);
    expect((await app.get(url, { token: 'nonMember' })).status).toBe(200);
    expect((await app.get(`/api/v4/projects/${res.body.id}/repository/commits`, { token: 'guest' })).status).toBe(200);
    await app.put(`/api/v4/projects/${res.body.id}`, { repository_access_level: 'private' }, { token: 'owner' });
    expect(await app.get(url, { token: 'nonMember' })).toMatchObject({ status: 404, body: { message: '404 Repository Not Found' } });
    expect((await app.get(url, { token: 'owner' })).status).toBe(200);
    await app.put(`/api/v4/projects/${res.body.id}`, { repository_access_level: 'disabled' }, { token: 'owner' });
    expect(await app.get(url, { token: 'owner' })).toMatchObject({ status: 404, body: { message: '404 Repository Not Found' } });
  });

  it('refuses writes to an archived project', async () => {
    const res = await create({ name: 'Archived', initialize_with_readme: true });
    await app.post(`/api/v4/projects/${res.body.id}/archive`, {}, { token: 'owner' });
    const write = await app.post(`/api/v4/projects/${res.body.id}/repository/branches`, { branch: 'x', ref: 'main' }, { token: 'owner' });
    expect(write).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { ZERO_SHA } from '../git/ref-names.js';
import { commitFiles, createRepoTestApp } from '../testing/repo-test-app.js';

type Pushed = Record<string, any>;

describe('repository.pushed events', () => {
  let app: TestApp;
  const waiters: ((event: Pushed) => void)[] = [];
  const next = () => new Promise<Pushed>((resolve) => waiters.push(resolve));

  beforeAll(async () => {
    app = await createRepoTestApp();
    app.kernel.events.on<Pushed>('repository.pushed', (event) => waiters.shift()?.(event));
  });
  afterAll(() => app.close());

  it('carries GitLab’s push payload for a commit made through the API', async () => {
    const event = next();
    const commit = await commitFiles(app, app.project.id, { 'a.txt': 'a\n', 'b.txt': 'b\n' }, { message: 'First\n\nBody', token: 'maintainer' });
    const payload = await event;
    expect(payload).toMatchObject({
      projectId: app.project.id,
      userId: app.users.maintainer.id,
      object_kind: 'push',
      event_name: 'push',
      before: ZERO_SHA,
      after: commit.id,
      ref: 'refs/heads/main',
      ref_protected: true,
      checkout_sha: commit.id,
      message: null,
      user_id: app.users.maintainer.id,
      user_name: app.users.maintainer.name,
      user_username: 'maintainer',
      user_email: app.users.maintainer.email,
      project_id: app.project.id,
      project: {
        id: app.project.id,
        name: 'Test Project',
        path_with_namespace: 'test-group/test-project',
        git_http_url: 'http://localhost/test-group/test-project.git',
        git_ssh_url: 'git@localhost:test-group/test-project.git',
        web_url: 'http://localhost/test-group/test-project',
      },
      repository: { name: 'Test Project', homepage: 'http://localhost/test-group/test-project' },
      commits: [
        {
          id: commit.id,
          message: 'First\n\nBody',
          title: 'First',
          url: `http://localhost/test-group/test-project/-/commit/${commit.id}`,
          author: { name: app.users.maintainer.name, email: app.users.maintainer.email },
          added: ['a.txt', 'b.txt'],
          modified: [],
          removed: [],
        },
      ],
      total_commits_count: 1,
      push_options: {},
    });
  });

  it('shortens long commit titles in the payload as GitLab does, while the API keeps them whole', async () => {
    const long = `Refactor ${'the storage layer '.repeat(6)}so that moves can resume`;
    expect(long.length).toBeGreaterThanOrEqual(100);
    const event = next();
    const commit = await commitFiles(app, app.project.id, { 'long.txt': 'x\n' }, { message: `${long}\n\nDetails` });
    const payload = await event;
    const title = payload.commits[0].title as string;
    expect(title).toBe(`${long.slice(0, long.lastIndexOf(' ', 78))}...`);
    expect(title.length).toBeLessThanOrEqual(81);
    expect(payload.commits[0].message).toBe(`${long}\n\nDetails`);
    expect((await app.get(`/api/v4/projects/${app.project.id}/repository/commits/${commit.id}`, { token: 'maintainer' })).body.title).toBe(long);

    const unbroken = 'x'.repeat(120);
    const second = next();
    await commitFiles(app, app.project.id, { 'long.txt': 'y\n' }, { message: unbroken });
    expect((await second).commits[0].title).toBe(`${'x'.repeat(78)}...`);
  });

  it('reports modified and removed paths, a tag push, and a branch deletion', async () => {
    const modified = next();
    const second = await commitFiles(app, app.project.id, { 'a.txt': 'changed\n', 'b.txt': null });
    expect(await modified).toMatchObject({
      before: expect.stringMatching(/^[0-9a-f]{40}$/),
      after: second.id,
      commits: [{ added: [], modified: ['a.txt'], removed: ['b.txt'] }],
    });

    const tag = next();
    await app.post(`/api/v4/projects/${app.project.id}/repository/tags`, { tag_name: 'v1', ref: 'main' }, { token: 'maintainer' });
    expect(await tag).toMatchObject({
      object_kind: 'tag_push',
      ref: 'refs/tags/v1',
      before: ZERO_SHA,
      after: second.id,
      checkout_sha: second.id,
      total_commits_count: 1,
    });

    const created = next();
    await app.post(`/api/v4/projects/${app.project.id}/repository/branches`, { branch: 'side', ref: 'main' }, { token: 'maintainer' });
    expect(await created).toMatchObject({
      ref: 'refs/heads/side',
      ref_protected: false,
      before: ZERO_SHA,
      after: second.id,
      commits: [],
      total_commits_count: 0,
    });

    const removed = next();
    await app.delete(`/api/v4/projects/${app.project.id}/repository/branches/side`, { token: 'maintainer' });
    expect(await removed).toMatchObject({
      ref: 'refs/heads/side',
      before: second.id,
      after: ZERO_SHA,
      checkout_sha: null,
      commits: [],
      total_commits_count: 0,
    });
  });
});

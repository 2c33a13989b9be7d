import { mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { createGitClient } from '../testing/git-client.js';
import { listen } from '../testing/listen.js';
import { commitFiles, createRepoTestApp } from '../testing/repo-test-app.js';

type Role = 'maintainer' | 'developer';

describe('protected branches on git push', () => {
  let app: TestApp;
  let server: { url: string; close(): Promise<void> };
  let client: Awaited<ReturnType<typeof createGitClient>>;
  let work: string;
  let dir: string;

  const remote = (role: Role, path = 'test-group/test-project.git') => `${server.url.replace('://', `://${role}:${app.tokens[role]}@`)}/${path}`;
  const head = async (branch: string) =>
    (await app.get(`/api/v4/projects/${app.project.id}/repository/branches/${encodeURIComponent(branch)}`, { token: 'maintainer' })).body?.commit?.id;
  const commit = async (cwd: string, file: string) => {
    await writeFile(join(cwd, file), `${file} ${Math.random()}\n`);
    await client.ok(cwd, ['add', file]);
    await client.ok(cwd, ['commit', '--quiet', '-m', `Add ${file}`]);
    return (await client.ok(cwd, ['rev-parse', 'HEAD'])).trim();
  };
  /** A push that must be declined with `message`, every ref of it rejected. */
  const declined = async (cwd: string, args: string[], message: string) => {
    const push = await client.run(cwd, ['push', ...args]);
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain(`remote: ${message}`);
    expect(push.stderr).toContain('(pre-receive hook declined)');
  };

  beforeAll(async () => {
    app = await createRepoTestApp();
    server = await listen(app);
    client = await createGitClient();
    work = await mkdtemp(join(client.home, 'work-'));
    await commitFiles(app, app.project.id, { 'README.md': '# Hi\n' });
    await client.ok(work, ['clone', '--quiet', remote('developer'), 'clone']);
    dir = join(work, 'clone');
    await app.post(`/api/v4/projects/${app.project.id}/protected_branches`, { name: 'release/*' }, { token: 'maintainer' });
  });
  afterAll(async () => {
    await server.close();
    await app.close();
  });

  it('declines a Developer’s push to the protected default branch, and the whole push with it', async () => {
    const before = await head('main');
    await commit(dir, 'dev.txt');
    await declined(dir, [remote('developer'), 'HEAD:main', 'HEAD:topic'], 'You are not allowed to push code to protected branches on this project.');
    expect(await head('main')).toBe(before);
    expect(await head('topic')).toBeUndefined();
    await client.ok(dir, ['push', '--quiet', remote('developer'), 'HEAD:topic']);
    expect(await head('topic')).toBeDefined();
  });

  it('lets a Maintainer push, but not rewrite the branch until force pushes are allowed', async () => {
    const pushed = (await client.ok(dir, ['rev-parse', 'HEAD'])).trim();
    await client.ok(dir, ['push', '--quiet', remote('maintainer'), 'HEAD:main']);
    expect(await head('main')).toBe(pushed);
    await client.ok(dir, ['reset', '--quiet', '--hard', 'HEAD~1']);
    const rewritten = await commit(dir, 'other.txt');
    await declined(dir, ['--force', remote('maintainer'), 'HEAD:main'], 'You are not allowed to force push code to a protected branch on this project.');
    expect(await head('main')).toBe(pushed);
    await app.request('PATCH', `/api/v4/projects/${app.project.id}/protected_branches/main`, { token: 'maintainer', body: { allow_force_push: true } });
    await client.ok(dir, ['push', '--quiet', '--force', remote('maintainer'), 'HEAD:main']);
    expect(await head('main')).toBe(rewritten);
  });

  it('refuses creating and deleting protected branches with git, with GitLab’s texts', async () => {
    await declined(dir, [remote('developer'), 'HEAD:release/1'], 'You are not allowed to create protected branches on this project.');
    await client.ok(dir, ['push', '--quiet', remote('maintainer'), 'HEAD:release/1']);
    await declined(
      dir,
      [remote('developer'), ':release/1'],
      'You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.',
    );
    await declined(dir, [remote('maintainer'), ':release/1'], 'You can only delete protected branches using the web interface.');
    expect(await head('release/1')).toBeDefined();
  });

  it('keeps a Developer from the first push into an empty, fully protected project, and protects a Maintainer’s', async () => {
    const project = await app.post('/api/v4/projects', { name: 'Fresh', namespace_id: app.group.id }, { token: 'owner' });
    const path = 'test-group/fresh.git';
    await declined(dir, [remote('developer', path), 'HEAD:main'], 'A default branch (e.g. main) does not yet exist for test-group/fresh');
    await client.ok(dir, ['push', '--quiet', remote('maintainer', path), 'HEAD:main']);
    const rules = await app.get(`/api/v4/projects/${project.body.id}/protected_branches`, { token: 'maintainer' });
    expect(rules.body.map((rule: { name: string }) => rule.name)).toEqual(['main']);
  });
});

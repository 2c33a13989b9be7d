import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { definePlugin } from '@forgekit/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { gitPathsRef } from '../contracts.js';
import { createGitClient } from '../testing/git-client.js';
import { listen } from '../testing/listen.js';
import { commitFiles, createRepoTestApp } from '../testing/repo-test-app.js';

/** Names the seeded project `short`, as an alias would. */
const names = new Map<string, number>();
const shortNamesPlugin = definePlugin({
  id: 'short-names-test',
  compatibility: '^0.1.0',
  requires: [gitPathsRef],
  register(ctx) {
    ctx.resolve(gitPathsRef).addResolver(async (name) => names.get(name) ?? null);
  },
});

describe('git over HTTP by another name', () => {
  let app: TestApp;
  let server: { url: string; close(): Promise<void> };
  let client: Awaited<ReturnType<typeof createGitClient>>;
  let work: string;
  /** A fetch of the ref advertisement, as `role` (Basic auth) or anonymously. */
  const advertise = (path: string, role?: 'maintainer' | 'nonMember') =>
    fetch(`${server.url}/${path}/info/refs?service=git-upload-pack`, {
      headers: role ? { Authorization: `Basic ${Buffer.from(`${role}:${app.tokens[role]}`).toString('base64')}` } : {},
    });
  const remote = (role: 'maintainer' | 'reporter', path: string) => `${server.url.replace('://', `://${role}:${app.tokens[role]}@`)}/${path}`;

  beforeAll(async () => {
    app = await createRepoTestApp({ plugins: [shortNamesPlugin] });
    names.set('short', app.project.id);
    server = await listen(app);
    client = await createGitClient();
    work = await mkdtemp(join(client.home, 'work-'));
    await commitFiles(app, app.project.id, { 'README.md': '# Named\n' });
  });
  afterAll(async () => {
    await server?.close();
    await app?.close();
  });

  it('clones and pushes through the name, with the project behind it', async () => {
    await client.ok(work, ['clone', '--quiet', remote('maintainer', 'short.git'), 'short']);
    const dir = join(work, 'short');
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toBe('# Named\n');
    await writeFile(join(dir, 'more.txt'), 'more\n');
    await client.ok(dir, ['add', 'more.txt']);
    await client.ok(dir, ['commit', '--quiet', '-m', 'Through the name']);
    await client.ok(dir, ['push', '--quiet', 'origin', 'main']);
    const file = await app.get(`/api/v4/projects/${app.project.id}/repository/files/more.txt/raw`, { token: 'reporter' });
    expect(file.text).toBe('more\n');
  });

  it('keeps the project access rules: reporters clone but do not push, others do not see it', async () => {
    await client.ok(work, ['clone', '--quiet', remote('reporter', 'short.git'), 'reporter']);
    const dir = join(work, 'reporter');
    await writeFile(join(dir, 'no.txt'), 'no\n');
    await client.ok(dir, ['add', 'no.txt']);
    await client.ok(dir, ['commit', '--quiet', '-m', 'Not allowed']);
    const push = await client.run(dir, ['push', '--quiet', 'origin', 'main']);
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain('You are not allowed to push code to this project.');

    const hidden = await advertise('short.git', 'nonMember');
    expect(hidden.status).toBe(404);
    const anonymous = await advertise('short.git');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Basic realm="forgekit"');
  });

  it('answers a top-level name nobody knows as an unknown project', async () => {
    const unknown = await advertise('nobody.git', 'maintainer');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe("The project you were looking for could not be found or you don't have permission to view it.\n");
    expect((await advertise('nobody.git')).status).toBe(401);
    // A top-level name without `.git` is no git URL at all.
    expect((await advertise('short', 'maintainer')).status).toBe(404);
  });
});

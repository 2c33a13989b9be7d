import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { definePlugin, type Principal } from '@forgekit/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { gitPathsRef, repositoryReadRef, repositoryWriteRef, type GitContainer } from '../contracts.js';
import { createGitClient } from '../testing/git-client.js';
import { listen } from '../testing/listen.js';
import { createRepoTestApp } from '../testing/repo-test-app.js';

/** `boxes/<n>`: snippet repositories whose rules the test sets per user name. */
const rules = new Map<string, Omit<GitContainer, 'key'>>();
const boxesPlugin = definePlugin({
  id: 'boxes-test',
  compatibility: '^0.1.0',
  requires: [gitPathsRef],
  register(ctx) {
    ctx.resolve(gitPathsRef).addContainerResolver(async (path: string, user: Principal | null) => {
      const match = /^boxes\/(\d+)$/.exec(path);
      if (!match) return null;
      const rule = rules.get(user?.username ?? 'anonymous') ?? { visible: false, canDownload: false, canPush: false };
      return { key: { kind: 'snippet', containerId: Number(match[1]) }, ...rule };
    });
  },
});

describe('git over HTTP for repositories of no project', () => {
  let app: TestApp;
  let server: { url: string; close(): Promise<void> };
  let client: Awaited<ReturnType<typeof createGitClient>>;
  let work: string;
  const advertise = (role?: 'maintainer' | 'reporter' | 'guest') =>
    fetch(`${server.url}/boxes/7.git/info/refs?service=git-upload-pack`, {
      headers: role ? { Authorization: `Basic ${Buffer.from(`${role}:${app.tokens[role]}`).toString('base64')}` } : {},
    });
  const remote = (role: 'maintainer' | 'reporter') => `${server.url.replace('://', `://${role}:${app.tokens[role]}@`)}/boxes/7.git`;

  beforeAll(async () => {
    app = await createRepoTestApp({ plugins: [boxesPlugin] });
    server = await listen(app);
    client = await createGitClient();
    work = await mkdtemp(join(client.home, 'work-'));
    const writes = app.kernel.resolve(repositoryWriteRef);
    const repository = await writes.ensure({ kind: 'snippet', containerId: 7 });
    const author = { name: 'Box', email: 'box@example.com' };
    await writes.commitFiles(
      repository,
      {
        branch: 'main',
        expectedHead: null,
        message: 'First',
        author,
        committer: author,
        actions: [{ action: 'create', filePath: 'a.txt', content: Buffer.from('a\n') }],
      },
      null,
    );
    rules.set('maintainer', { visible: true, canDownload: true, canPush: true });
    rules.set('reporter', { visible: true, canDownload: true, canPush: false });
    rules.set('guest', { visible: true, canDownload: false, canPush: false });
  });
  afterAll(async () => {
    await server?.close();
    await app?.close();
  });

  it('clones and pushes where the owner allows it', async () => {
    await client.ok(work, ['clone', '--quiet', remote('maintainer'), 'box']);
    const dir = join(work, 'box');
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('a\n');
    await writeFile(join(dir, 'b.txt'), 'b\n');
    await client.ok(dir, ['add', 'b.txt']);
    await client.ok(dir, ['commit', '--quiet', '-m', 'Second']);
    await client.ok(dir, ['push', '--quiet', 'origin', 'main']);
    const reads = app.kernel.resolve(repositoryReadRef);
    const repository = (await reads.find({ kind: 'snippet', containerId: 7 }))!;
    const head = (await reads.resolveCommit(repository, 'main'))!;
    expect((await reads.readBlob(repository, head, 'b.txt'))?.data.toString()).toBe('b\n');
  });

  it('refuses what the owner refuses, with git-friendly answers', async () => {
    await client.ok(work, ['clone', '--quiet', remote('reporter'), 'reader']);
    const dir = join(work, 'reader');
    await writeFile(join(dir, 'c.txt'), 'c\n');
    await client.ok(dir, ['add', 'c.txt']);
    await client.ok(dir, ['commit', '--quiet', '-m', 'Not mine']);
    const push = await client.run(dir, ['push', '--quiet', 'origin', 'main']);
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain('You are not allowed to update this snippet.');

    const denied = await advertise('guest');
    expect([denied.status, await denied.text()]).toEqual([403, 'You are not allowed to download code from this snippet.\n']);
    const anonymous = await advertise();
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Basic realm="forgekit"');
    rules.delete('guest');
    const hidden = await advertise('guest');
    expect([hidden.status, await hidden.text()]).toEqual([
      404,
      "The project you were looking for could not be found or you don't have permission to view it.\n",
    ]);
  });
});

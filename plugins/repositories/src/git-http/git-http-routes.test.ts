import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { buffer } from 'node:stream/consumers';
import { createGzip, gzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { coreTokensRef } from '@forgekit/plugin-core/contracts';
import { repositoriesServiceRef } from '../contracts.js';
import { createGitClient } from '../testing/git-client.js';
import { listen } from '../testing/listen.js';
import { pktLine } from './pkt-line.js';
import { commitFiles, createRepoTestApp } from '../testing/repo-test-app.js';

type Pushed = {
  ref: string;
  before: string;
  after: string;
  object_kind: string;
  commits: { id: string; added: string[]; modified: string[] }[];
  total_commits_count: number;
  user_username: string;
  project_id: number;
};

describe('git over HTTP', () => {
  let app: TestApp;
  let server: { url: string; close(): Promise<void> };
  let client: Awaited<ReturnType<typeof createGitClient>>;
  let work: string;
  const pushed: Pushed[] = [];
  const waiters: { match: (event: Pushed) => boolean; resolve: (event: Pushed) => void }[] = [];
  /** The push event for a ref (resolves once the post-receive job emitted it). */
  const pushOf = (ref: string) =>
    new Promise<Pushed>((resolve) => {
      const seen = pushed.find((event) => event.ref === ref);
      if (seen) {
        pushed.splice(pushed.indexOf(seen), 1);
        resolve(seen);
      } else waiters.push({ match: (event) => event.ref === ref, resolve });
    });
  const remote = (role: 'maintainer' | 'reporter' | 'developer' | null, path = 'test-group/test-project.git') =>
    role ? `${server.url.replace('://', `://${role}:${app.tokens[role]}@`)}/${path}` : `${server.url}/${path}`;

  beforeAll(async () => {
    app = await createRepoTestApp();
    app.kernel.events.on<Pushed>('repository.pushed', (event) => {
      const waiter = waiters.find((candidate) => candidate.match(event));
      if (waiter) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      } else pushed.push(event);
    });
    server = await listen(app);
    client = await createGitClient();
    work = await mkdtemp(join(client.home, 'work-'));
    await commitFiles(app, app.project.id, { 'README.md': '# From the API\n' });
    await pushOf('refs/heads/main');
  });
  afterAll(async () => {
    await server.close();
    await app.close();
  });

  it('clones with a token, pushes a commit, and the API sees it', async () => {
    await client.ok(work, ['clone', '--quiet', remote('maintainer'), 'clone']);
    const dir = join(work, 'clone');
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toBe('# From the API\n');
    await writeFile(join(dir, 'pushed.txt'), 'pushed over http\n');
    await client.ok(dir, ['add', 'pushed.txt']);
    await client.ok(dir, ['commit', '--quiet', '-m', 'Pushed with git']);
    const sha = (await client.ok(dir, ['rev-parse', 'HEAD'])).trim();
    await client.ok(dir, ['push', '--quiet', 'origin', 'main']);
    const event = pushOf('refs/heads/main');

    const commit = await app.get(`/api/v4/projects/${app.project.id}/repository/commits/main`, { token: 'reporter' });
    expect(commit.body).toMatchObject({ id: sha, title: 'Pushed with git', author_name: 'Client Author', author_email: 'client@example.com' });
    const file = await app.get(`/api/v4/projects/${app.project.id}/repository/files/pushed.txt/raw`, { token: 'reporter' });
    expect(file.text).toBe('pushed over http\n');

    expect(await event).toMatchObject({
      object_kind: 'push',
      ref: 'refs/heads/main',
      after: sha,
      project_id: app.project.id,
      user_username: 'maintainer',
      total_commits_count: 1,
      commits: [{ id: sha, added: ['pushed.txt'], modified: [] }],
    });
  });

  it('pulls a commit made through the API', async () => {
    const dir = join(work, 'clone');
    const apiCommit = await commitFiles(app, app.project.id, { 'api.txt': 'from the api\n' }, { message: 'API commit' });
    expect((await pushOf('refs/heads/main')).after).toBe(apiCommit.id);
    await client.ok(dir, ['pull', '--quiet', '--ff-only', 'origin', 'main']);
    expect(await readFile(join(dir, 'api.txt'), 'utf8')).toBe('from the api\n');
    expect((await client.ok(dir, ['rev-parse', 'HEAD'])).trim()).toBe(apiCommit.id);
  });

  it('speaks protocol v0 too, and pushes new branches and tags', async () => {
    const dir = join(work, 'v0');
    await client.ok(work, ['-c', 'protocol.version=0', 'clone', '--quiet', remote('developer'), 'v0']);
    await client.ok(dir, ['checkout', '--quiet', '-b', 'topic']);
    await writeFile(join(dir, 'topic.txt'), 'topic\n');
    await client.ok(dir, ['add', '.']);
    await client.ok(dir, ['commit', '--quiet', '-m', 'Topic']);
    await client.ok(dir, ['tag', 'v1.0']);
    await client.ok(dir, ['-c', 'protocol.version=0', 'push', '--quiet', 'origin', 'topic', 'v1.0']);
    const branch = await app.get(`/api/v4/projects/${app.project.id}/repository/branches/topic`, { token: 'reporter' });
    expect(branch.body.commit.title).toBe('Topic');
    const tag = await app.get(`/api/v4/projects/${app.project.id}/repository/tags/v1.0`, { token: 'reporter' });
    expect(tag.body.commit.title).toBe('Topic');
    expect(await pushOf('refs/heads/topic')).toMatchObject({ object_kind: 'push', total_commits_count: 1 });
    expect(await pushOf('refs/tags/v1.0')).toMatchObject({ object_kind: 'tag_push' });
  });

  it('challenges anonymous callers of a private project with Basic auth', async () => {
    const res = await fetch(`${remote(null)}/info/refs?service=git-upload-pack`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="forgekit"');
    const clone = await client.run(work, ['clone', '--quiet', remote(null), 'anonymous']);
    expect(clone.code).not.toBe(0);
  });

  it('answers 404 to a signed-in user who cannot see the project, and for unknown projects', async () => {
    const auth = { Authorization: `Basic ${Buffer.from(`x:${app.tokens.nonMember}`).toString('base64')}` };
    const hidden = await fetch(`${remote(null)}/info/refs?service=git-upload-pack`, { headers: auth });
    expect(hidden.status).toBe(404);
    const unknown = await fetch(`${remote(null, 'test-group/nope.git')}/info/refs?service=git-upload-pack`, { headers: auth });
    expect(unknown.status).toBe(404);
  });

  it('lets a reporter clone but not push', async () => {
    await client.ok(work, ['clone', '--quiet', remote('reporter'), 'reporter']);
    const dir = join(work, 'reporter');
    await writeFile(join(dir, 'nope.txt'), 'nope\n');
    await client.ok(dir, ['add', '.']);
    await client.ok(dir, ['commit', '--quiet', '-m', 'Not allowed']);
    const push = await client.run(dir, ['push', 'origin', 'main']);
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain('403');
    const auth = { Authorization: `Basic ${Buffer.from(`x:${app.tokens.reporter}`).toString('base64')}` };
    const res = await fetch(`${remote(null)}/info/refs?service=git-receive-pack`, { headers: auth });
    expect(res.status).toBe(403);
    expect(await res.text()).toBe('You are not allowed to push code to this project.\n');
  });

  it('lets read_api and read_repository tokens clone, and only writing scopes push', async () => {
    const tokens = app.kernel.resolve(coreTokensRef);
    const scoped = async (scopes: string[]) => (await tokens.create({ userId: app.users.maintainer.id, name: scopes.join(' '), scopes })).secret;
    const readApi = await scoped(['read_api']);
    const readRepository = await scoped(['read_repository']);
    const writeRepository = await scoped(['write_repository']);
    const url = (token: string) => `${server.url.replace('://', `://maintainer:${token}@`)}/test-group/test-project.git`;

    await client.ok(work, ['clone', '--quiet', url(readApi), 'read-api']);
    expect(await readFile(join(work, 'read-api', 'README.md'), 'utf8')).toBe('# From the API\n');
    await client.ok(work, ['clone', '--quiet', url(readRepository), 'read-repository']);

    const dir = join(work, 'read-repository');
    await writeFile(join(dir, 'scoped.txt'), 'scoped\n');
    await client.ok(dir, ['add', '.']);
    await client.ok(dir, ['commit', '--quiet', '-m', 'Scoped push']);
    for (const token of [readApi, readRepository]) {
      const res = await fetch(`${remote(null)}/info/refs?service=git-receive-pack`, {
        headers: { Authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}` },
      });
      expect(res.status).toBe(403);
      expect(await res.text()).toBe('You are not allowed to upload code.\n');
    }
    expect((await client.run(dir, ['push', 'origin', 'HEAD:scoped'])).code).not.toBe(0);
    await client.ok(dir, ['push', '--quiet', url(writeRepository), 'HEAD:scoped']);
    expect(await pushOf('refs/heads/scoped')).toMatchObject({ object_kind: 'push', user_username: 'maintainer' });
  });

  it('refuses tokens without a repository scope in plain text, before looking at the project', async () => {
    const tokens = app.kernel.resolve(coreTokensRef);
    const readUser = (await tokens.create({ userId: app.users.maintainer.id, name: 'read_user', scopes: ['read_user'] })).secret;
    const createRunner = (await tokens.create({ userId: app.users.maintainer.id, name: 'create_runner', scopes: ['create_runner'] })).secret;
    const DOWNLOAD = 'You are not allowed to download code.\n';
    const UPLOAD = 'You are not allowed to upload code.\n';
    for (const token of [readUser, createRunner]) {
      const headers = { Authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}` };
      const post = (path: string, service: string) =>
        fetch(`${remote(null, path)}/${service}`, {
          method: 'POST',
          headers: { ...headers, 'Content-Type': `application/x-${service}-request` },
          body: '0000',
        });
      for (const path of ['test-group/test-project.git', 'test-group/nope.git']) {
        const answers = [
          [await fetch(`${remote(null, path)}/info/refs?service=git-upload-pack`, { headers }), DOWNLOAD],
          [await post(path, 'git-upload-pack'), DOWNLOAD],
          [await fetch(`${remote(null, path)}/info/refs?service=git-receive-pack`, { headers }), UPLOAD],
          [await post(path, 'git-receive-pack'), UPLOAD],
        ] as const;
        for (const [res, text] of answers) {
          expect(res.status).toBe(403);
          expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
          expect(await res.text()).toBe(text);
        }
      }
    }
    const clone = await client.run(work, [
      'clone',
      '--quiet',
      `${server.url.replace('://', `://maintainer:${readUser}@`)}/test-group/test-project.git`,
      'read-user',
    ]);
    expect(clone.code).not.toBe(0);
    expect(clone.stderr).toContain('You are not allowed to download code.');
  });

  it('declines a push that deletes the default branch, telling git why, and applies none of its refs', async () => {
    await client.ok(work, ['clone', '--quiet', remote('maintainer'), 'deleter']);
    const dir = join(work, 'deleter');
    const main = (await client.ok(dir, ['rev-parse', 'origin/main'])).trim();
    const push = await client.run(dir, ['push', 'origin', ':main', 'HEAD:refs/heads/alongside']);
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain('remote: The default branch of a project cannot be deleted.');
    expect(push.stderr).toMatch(/\[remote rejected\] main \(pre-receive hook declined\)/);
    expect(push.stderr).toMatch(/\[remote rejected\] HEAD -> alongside \(pre-receive hook declined\)/);
    expect((await app.get(`/api/v4/projects/${app.project.id}/repository/branches/main`, { token: 'reporter' })).body.commit.id).toBe(main);
    expect((await app.get(`/api/v4/projects/${app.project.id}/repository/branches/alongside`, { token: 'reporter' })).status).toBe(404);
  });

  it('refuses pushes to an archived project with GitLab’s text', async () => {
    const created = await app.post('/api/v4/projects', { name: 'Shelved', namespace_id: app.group.id, initialize_with_readme: true }, { token: 'owner' });
    await pushOf('refs/heads/main');
    await app.post(`/api/v4/projects/${created.body.id}/archive`, {}, { token: 'owner' });
    const auth = { Authorization: `Basic ${Buffer.from(`x:${app.tokens.maintainer}`).toString('base64')}` };
    const res = await fetch(`${remote(null, 'test-group/shelved.git')}/info/refs?service=git-receive-pack`, { headers: auth });
    expect(res.status).toBe(403);
    expect(await res.text()).toBe("You can't push code to an archived project.\n");
    expect((await fetch(`${remote(null, 'test-group/shelved.git')}/info/refs?service=git-upload-pack`, { headers: auth })).status).toBe(200);
  });

  it('refuses pushes while the repository is read-only, and API writes with GitLab’s text', async () => {
    const repos = app.kernel.resolve(repositoriesServiceRef);
    const repository = (await repos.find({ kind: 'project', containerId: app.project.id }))!;
    await repos.setReadOnly([repository.id], true);
    try {
      const auth = { Authorization: `Basic ${Buffer.from(`x:${app.tokens.maintainer}`).toString('base64')}` };
      const res = await fetch(`${remote(null)}/info/refs?service=git-receive-pack`, { headers: auth });
      expect(res.status).toBe(403);
      expect(await res.text()).toBe('The repository is temporarily read-only. Please try again later.\n');
      const reporter = { Authorization: `Basic ${Buffer.from(`x:${app.tokens.reporter}`).toString('base64')}` };
      expect(await (await fetch(`${remote(null)}/info/refs?service=git-receive-pack`, { headers: reporter })).text()).toBe(
        'The repository is temporarily read-only. Please try again later.\n',
      );
      const clone = await fetch(`${remote(null)}/info/refs?service=git-upload-pack`, { headers: auth });
      expect(clone.status).toBe(200);
      const api = await app.post(
        `/api/v4/projects/${app.project.id}/repository/commits`,
        { branch: 'main', commit_message: 'm', actions: [{ action: 'create', file_path: 'ro.txt', content: 'x' }] },
        { token: 'maintainer' },
      );
      expect(api).toMatchObject({ status: 400, body: { message: 'The repository is temporarily read-only. Please try again later.' } });
    } finally {
      await repos.setReadOnly([repository.id], false);
    }
  });

  it('serves the advertisement with git’s content types and refuses the dumb protocol', async () => {
    const auth = { Authorization: `Basic ${Buffer.from(`x:${app.tokens.maintainer}`).toString('base64')}` };
    const res = await fetch(`${remote(null)}/info/refs?service=git-upload-pack`, { headers: auth });
    expect(res.headers.get('content-type')).toBe('application/x-git-upload-pack-advertisement');
    expect((await res.text()).startsWith('001e# service=git-upload-pack\n0000')).toBe(true);
    const dumb = await fetch(`${remote(null)}/info/refs`, { headers: auth });
    expect(dumb.status).toBe(403);
  });

  it('reads gzip-compressed request bodies (protocol v2 ls-refs)', async () => {
    const body = gzipSync(Buffer.from(`${pktLine('command=ls-refs\n')}0001${pktLine('peel\n')}0000`));
    const res = await fetch(`${remote(null)}/git-upload-pack`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`x:${app.tokens.reporter}`).toString('base64')}`,
        'Content-Type': 'application/x-git-upload-pack-request',
        'Content-Encoding': 'gzip',
        'Git-Protocol': 'version=2',
      },
      body,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-git-upload-pack-result');
    expect(await res.text()).toContain(' refs/heads/main');
  });

  it('refuses with 413 a fetch negotiation that inflates past its bound (a gzip bomb of want lines), and one sent that large', async () => {
    // Wants of a real commit: git reads every one of them before it answers.
    const head = (await app.get(`/api/v4/projects/${app.project.id}/repository/commits/main`, { token: 'reporter' })).body.id as string;
    const want = Buffer.from(pktLine(`want ${head}\n`));
    const inflated = 64 * 1024 * 1024;
    const gzip = createGzip({ level: 9 });
    const compressed = buffer(gzip);
    for (let written = 0; written < inflated; written += want.length * 4096) {
      if (!gzip.write(Buffer.concat(Array.from({ length: 4096 }, () => want)))) await once(gzip, 'drain');
    }
    gzip.end();
    const bomb = await compressed;
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const headers = {
      Authorization: `Basic ${Buffer.from(`x:${app.tokens.reporter}`).toString('base64')}`,
      'Content-Type': 'application/x-git-upload-pack-request',
    };
    for (const [body, encoding] of [
      [bomb, { 'Content-Encoding': 'gzip' }],
      [Buffer.alloc(9 * 1024 * 1024, 'a'), {}],
    ] as const) {
      const res = await fetch(`${remote(null)}/git-upload-pack`, { method: 'POST', headers: { ...headers, ...encoding }, body });
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ message: '413 Request Entity Too Large' });
    }
  });

  it('answers 400 in plain text to a gzip body that does not inflate, on both services', async () => {
    const auth = `Basic ${Buffer.from(`x:${app.tokens.maintainer}`).toString('base64')}`;
    const valid = gzipSync(Buffer.from(`${pktLine('command=ls-refs\n')}0000`));
    for (const [service, body] of [
      ['git-upload-pack', Buffer.from('not gzip at all')],
      // Cut inside the compressed data: git never sees a whole request.
      ['git-upload-pack', valid.subarray(0, 14)],
      ['git-receive-pack', Buffer.from('\x1f\x8b\x08\x00garbage')],
      ['git-receive-pack', Buffer.alloc(0)],
    ] as const) {
      const res = await fetch(`${remote(null)}/${service}`, {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': `application/x-${service}-request`, 'Content-Encoding': 'gzip', 'Git-Protocol': 'version=2' },
        body,
      });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await res.text()).toBe('Bad Request');
    }
  });

  it('streams a clone and a push of several megabytes both ways, byte for byte', async () => {
    const dir = join(work, 'large');
    await client.ok(work, ['clone', '--quiet', remote('maintainer'), 'large']);
    const data = randomBytes(6 * 1024 * 1024);
    await writeFile(join(dir, 'large.bin'), data);
    await client.ok(dir, ['add', 'large.bin']);
    await client.ok(dir, ['commit', '--quiet', '-m', 'Large file']);
    await client.ok(dir, ['push', '--quiet', 'origin', 'HEAD:large']);
    expect(await pushOf('refs/heads/large')).toMatchObject({ object_kind: 'push', total_commits_count: 1 });
    await client.ok(work, ['clone', '--quiet', '--branch', 'large', remote('reporter'), 'large-again']);
    expect((await readFile(join(work, 'large-again', 'large.bin'))).equals(data)).toBe(true);
  });

  it('refuses a receive-pack request from a reporter even without the advertisement', async () => {
    const res = await fetch(`${remote(null)}/git-receive-pack`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`x:${app.tokens.reporter}`).toString('base64')}`,
        'Content-Type': 'application/x-git-receive-pack-request',
      },
      body: '0000',
    });
    expect(res.status).toBe(403);
    const anonymous = await fetch(`${remote(null)}/git-receive-pack`, { method: 'POST', body: '0000' });
    expect(anonymous.status).toBe(401);
  });

  it('leaves the API routes and unknown paths alone', async () => {
    const api = await fetch(`${server.url}/api/v4/projects/${app.project.id}`, { headers: { 'PRIVATE-TOKEN': app.tokens.maintainer } });
    expect(api.status).toBe(200);
    const other = await fetch(`${server.url}/test-group/test-project/info/refs?service=git-upload-pack`);
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ error: '404 Not Found' });
  });
});

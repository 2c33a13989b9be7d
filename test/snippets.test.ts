import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, failureOf, type Api, type UserWithToken } from './support/gitbeaker.js';
import { gitCli, withToken } from './support/git-cli.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';
import { python } from './support/python-gitlab.js';

interface Snippet {
  id: number;
  file_name: string;
  http_url_to_repo: string;
  ssh_url_to_repo: string;
  web_url: string;
  files: { path: string; raw_url: string }[];
}

/**
 * People sharing code as snippets: a multi-file personal snippet made through
 * @gitbeaker/rest, cloned with git, changed by a push the API then shows, read by a
 * colleague who may not change it; a project snippet with its notes; and removal.
 */
describe('snippets through @gitbeaker/rest and git', () => {
  let server: ListeningServer;
  let admin: Api;
  let alice: UserWithToken;
  let bob: UserWithToken;
  let work: string;

  let git: ReturnType<typeof gitCli>['run'];
  let gitOk: ReturnType<typeof gitCli>['ok'];

  beforeAll(async () => {
    server = await startListeningServer();
    admin = clientFor(server, server.rootToken);
    alice = await createUserWithToken(admin, server, 'alice');
    bob = await createUserWithToken(admin, server, 'bob');
    work = await mkdtemp(join(tmpdir(), 'forgekit-snippets-blackbox-'));
    ({ run: git, ok: gitOk } = gitCli(work, { name: 'Alice', email: 'alice@example.com' }));
  });
  afterAll(async () => {
    await server?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  let shared: Snippet;

  it('creates a multi-file snippet and reads it back, raw and per file', async () => {
    shared = (await alice.api.Snippets.create('Dev setup', {
      description: 'How we set up',
      visibility: 'internal',
      files: [
        { filePath: 'setup.sh', content: '#!/bin/sh\nnpm ci\n' },
        { filePath: 'docs/notes.md', content: '# Notes\n' },
      ],
    })) as unknown as Snippet;
    expect(shared).toMatchObject({
      file_name: 'docs/notes.md',
      web_url: `${server.url}/-/snippets/${shared.id}`,
      http_url_to_repo: `${server.url}/snippets/${shared.id}.git`,
      ssh_url_to_repo: `git@127.0.0.1:snippets/${shared.id}.git`,
    });
    expect(shared.files.map((file) => file.path)).toEqual(['docs/notes.md', 'setup.sh']);

    const seen = await bob.api.Snippets.show(shared.id);
    expect(seen).toMatchObject({ id: shared.id, title: 'Dev setup', visibility: 'internal', author: { username: 'alice' } });
    expect(await bob.api.Snippets.showContent(shared.id)).toBe('# Notes\n');
    expect(await bob.api.Snippets.showRepositoryFileContent(shared.id, 'main', 'setup.sh')).toBe('#!/bin/sh\nnpm ci\n');
    expect((await alice.api.Snippets.all()).map((s) => s.id)).toEqual([shared.id]);
    expect(await bob.api.Snippets.all()).toEqual([]);
    expect(await failureOf(clientFor(server, '').Snippets.show(shared.id))).toEqual({ status: 404, description: '404 Snippet Not Found' });
  });

  it('clones the snippet with git, and a push by its author changes what the API shows', async () => {
    const dir = join(work, 'setup');
    await gitOk(work, 'clone', '--quiet', withToken(shared.http_url_to_repo, alice), dir);
    expect(await readFile(join(dir, 'setup.sh'), 'utf8')).toBe('#!/bin/sh\nnpm ci\n');
    await writeFile(join(dir, 'setup.sh'), '#!/bin/sh\nnpm ci\nnpm test\n');
    await writeFile(join(dir, 'a-first.txt'), 'now first\n');
    await gitOk(dir, 'add', '.');
    await gitOk(dir, 'commit', '--quiet', '-m', 'Run the tests too');
    await gitOk(dir, 'push', '--quiet', 'origin', 'main');

    expect(await bob.api.Snippets.showRepositoryFileContent(shared.id, 'main', 'setup.sh')).toBe('#!/bin/sh\nnpm ci\nnpm test\n');
    expect(await bob.api.Snippets.showContent(shared.id)).toBe('now first\n');
    const listed = (await alice.api.Snippets.all()) as unknown as Snippet[];
    expect(listed[0]!.file_name).toBe('a-first.txt');

    // The API's own change comes back on a pull.
    await alice.api.Snippets.edit(shared.id, { files: [{ action: 'delete', filePath: 'a-first.txt' }] });
    await gitOk(dir, 'pull', '--quiet', 'origin', 'main');
    expect((await gitOk(dir, 'ls-files')).split('\n')).toEqual(['docs/notes.md', 'setup.sh']);
  });

  it('lets a colleague clone but not push, nor change the snippet through the API', async () => {
    const dir = join(work, 'bob-setup');
    await gitOk(work, 'clone', '--quiet', withToken(shared.http_url_to_repo, bob), dir);
    await writeFile(join(dir, 'setup.sh'), 'rm -rf /\n');
    await gitOk(dir, 'commit', '--quiet', '-am', 'Mine now');
    const push = await git(dir, 'push', 'origin', 'main');
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain('You are not allowed to update this snippet.');
    expect(await failureOf(bob.api.Snippets.edit(shared.id, { description: 'Mine' }))).toEqual({ status: 404, description: '404 Snippet Not Found' });
    expect(await failureOf(bob.api.Snippets.remove(shared.id))).toEqual({ status: 404, description: '404 Snippet Not Found' });
    expect(await alice.api.Snippets.showContent(shared.id)).toBe('# Notes\n');
  });

  it('keeps a private snippet from others, in the API and in git', async () => {
    const secret = (await alice.api.Snippets.create('Secret', {
      visibility: 'private',
      files: [{ filePath: 'key.txt', content: 'hush' }],
    })) as unknown as Snippet;
    expect(await failureOf(bob.api.Snippets.show(secret.id))).toEqual({ status: 404, description: '404 Snippet Not Found' });
    const clone = await git(work, 'clone', '--quiet', withToken(secret.http_url_to_repo, bob), join(work, 'secret'));
    expect(clone.code).not.toBe(0);
    expect(clone.stderr).toContain('could not be found');
  });

  it('serves project snippets with the project’s rules, their notes, and removes them with the project', async () => {
    const group = await admin.Groups.create('Team', 'team', { visibility: 'public' });
    const project = await admin.Projects.create({ name: 'Tools', path: 'tools', namespaceId: group.id, visibility: 'public' });
    await admin.ProjectMembers.add(project.id, 30, { userId: alice.id });
    const snippet = (await alice.api.ProjectSnippets.create(project.id, 'Query', {
      visibility: 'public',
      files: [{ filePath: 'query.sql', content: 'select 1;\n' }],
    })) as unknown as Snippet;
    expect(snippet).toMatchObject({
      web_url: `${server.url}/team/tools/-/snippets/${snippet.id}`,
      http_url_to_repo: `${server.url}/team/tools/snippets/${snippet.id}.git`,
    });
    expect(await bob.api.ProjectSnippets.showContent(project.id, snippet.id)).toBe('select 1;\n');
    expect((await bob.api.ProjectSnippets.all(project.id)).map((s) => s.id)).toEqual([snippet.id]);
    expect(await bob.api.ProjectSnippetNotes.all(project.id, snippet.id)).toEqual([]);
    expect(await failureOf(bob.api.ProjectSnippets.create(project.id, 'Nope', { visibility: 'public', files: [{ filePath: 'a', content: 'b' }] }))).toEqual({
      status: 403,
      description: '403 Forbidden',
    });

    // `/snippets/all` through python-gitlab: Bob sees the public project's snippet, not Alice's private one;
    // the administrator sees every snippet.
    const allIds = (token: string) => python(server, token, "print(json.dumps([s['id'] for s in gl.http_list('/snippets/all', get_all=True)]))");
    const seenByBob: number[] = await allIds(bob.token);
    expect(seenByBob).toContain(snippet.id);
    const adminSees: number[] = await allIds(server.rootToken);
    expect(adminSees).toEqual(expect.arrayContaining([snippet.id, ...seenByBob]));
    expect(adminSees.length).toBeGreaterThan(seenByBob.length);

    const dir = join(work, 'query');
    await gitOk(work, 'clone', '--quiet', withToken(snippet.http_url_to_repo, bob), dir);
    expect(await readFile(join(dir, 'query.sql'), 'utf8')).toBe('select 1;\n');

    await admin.Projects.remove(project.id);
    await expect.poll(async () => (await failureOf(admin.Snippets.show(snippet.id))).status).toBe(404);
  });

  it('deletes a snippet with its repository', async () => {
    await alice.api.Snippets.remove(shared.id);
    expect(await failureOf(alice.api.Snippets.show(shared.id))).toEqual({ status: 404, description: '404 Snippet Not Found' });
    const clone = await git(work, 'clone', '--quiet', withToken(shared.http_url_to_repo, alice), join(work, 'gone'));
    expect(clone.code).not.toBe(0);
  });
});

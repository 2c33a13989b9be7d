import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccessLevel } from '@gitbeaker/rest';
import { corePlugin } from '@forgekit/plugin-core';
import { notesPlugin } from '@forgekit/plugin-notes';
import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { wikisPlugin } from '@forgekit/plugin-wikis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, failureOf, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';
import { python } from './support/python-gitlab.js';
import { gitCli } from './support/git-cli.js';

/**
 * A team's project wiki: pages written through @gitbeaker/rest, the wiki cloned with git, a
 * page pushed and read back through the API, an attachment committed, and GitLab's roles
 * and feature switch on the way.
 */
describe('project wikis through @gitbeaker/rest and git', () => {
  let server: ListeningServer;
  let admin: Api;
  let developer: UserWithToken;
  let guest: UserWithToken;
  let work: string;
  let project: { id: number };

  const gitIn = (cwd: string, ...args: string[]) => gitCli(work).ok(cwd, ...args);
  const wikiUrl = (user: UserWithToken) => `${server.url.replace('://', `://${user.username}:${user.token}@`)}/acme/docs.wiki.git`;

  beforeAll(async () => {
    server = await startListeningServer([corePlugin, repositoriesPlugin, notesPlugin, wikisPlugin]);
    admin = clientFor(server, server.rootToken);
    work = await mkdtemp(join(tmpdir(), 'forgekit-wikis-blackbox-'));
    const group = await admin.Groups.create('Acme', 'acme');
    project = (await admin.Projects.create({ name: 'Docs', path: 'docs', namespaceId: group.id })) as unknown as typeof project;
    developer = await createUserWithToken(admin, server, 'dana');
    guest = await createUserWithToken(admin, server, 'gus');
    await admin.ProjectMembers.add(project.id, AccessLevel.DEVELOPER, { userId: developer.id });
    await admin.ProjectMembers.add(project.id, AccessLevel.GUEST, { userId: guest.id });
  });
  afterAll(async () => {
    await server?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('writes, lists, reads, renders and renames pages through the API', async () => {
    const home = await developer.api.ProjectWikis.create(project.id, '# Docs\n\nSee [setup](guides/setup).', 'Home');
    expect(home).toEqual({
      format: 'markdown',
      slug: 'Home',
      title: 'Home',
      content: '# Docs\n\nSee [setup](guides/setup).',
      encoding: 'UTF-8',
      front_matter: {},
    });
    const setup = await developer.api.ProjectWikis.create(project.id, 'Install it.', 'guides/setup steps', { format: 'asciidoc' });
    expect(setup).toMatchObject({ slug: 'guides/setup-steps', title: 'setup steps', format: 'asciidoc' });

    const listed = await guest.api.ProjectWikis.all(project.id);
    expect(listed.map((page) => page.slug)).toEqual(['Home', 'guides/setup-steps']);
    expect(listed[0]).toEqual({ format: 'markdown', slug: 'Home', title: 'Home', wiki_page_meta_id: expect.any(Number) });
    const withContent = await guest.api.ProjectWikis.all(project.id, { withContent: true });
    expect(withContent.map((page) => page.content)).toEqual(['# Docs\n\nSee [setup](guides/setup).', 'Install it.']);

    const rendered = await guest.api.ProjectWikis.show(project.id, 'Home', { renderHtml: true });
    expect(rendered.content).toBe('<h1>Docs</h1>\n<p>See <a href="guides/setup">setup</a>.</p>');
    const nested = await guest.api.ProjectWikis.show(project.id, 'guides/setup-steps');
    expect(nested.content).toBe('Install it.');

    const renamed = await developer.api.ProjectWikis.edit(project.id, 'guides/setup-steps', { title: 'setup' });
    expect(renamed).toMatchObject({ slug: 'guides/setup', title: 'setup', content: 'Install it.', format: 'asciidoc' });
    const edited = await developer.api.ProjectWikis.edit(project.id, 'guides/setup', { content: 'Install it twice.' });
    expect(edited).toMatchObject({ slug: 'guides/setup', title: 'setup', content: 'Install it twice.', format: 'asciidoc' });
    expect(await failureOf(guest.api.ProjectWikis.show(project.id, 'guides/setup-steps'))).toEqual({ status: 404, description: '404 Wiki Page Not Found' });
  });

  it('keeps GitLab roles: Guests read, Developers write, Maintainers delete', async () => {
    expect((await failureOf(guest.api.ProjectWikis.create(project.id, 'x', 'Guest page'))).status).toBe(403);
    expect(await failureOf(developer.api.ProjectWikis.remove(project.id, 'guides/setup'))).toEqual({ status: 403, description: '403 Forbidden' });
    const outsider = await createUserWithToken(admin, server, 'olive');
    expect(await failureOf(outsider.api.ProjectWikis.all(project.id))).toEqual({ status: 404, description: '404 Project Not Found' });
    expect(await failureOf(developer.api.ProjectWikis.create(project.id, 'x', 'Home'))).toEqual({
      status: 400,
      description: JSON.stringify({ base: ['Duplicate page: A page with that title already exists'] }),
    });
  });

  it('clones the wiki with git, pushes a page, and reads it back through the API', async () => {
    const clone = join(work, 'docs.wiki');
    await gitIn(work, 'clone', '--quiet', wikiUrl(developer), clone);
    expect(await readFile(join(clone, 'Home.md'), 'utf8')).toBe('# Docs\n\nSee [setup](guides/setup).');
    expect(await readFile(join(clone, 'guides/setup.asciidoc'), 'utf8')).toBe('Install it twice.');
    expect(await gitIn(clone, 'log', '-1', '--format=%an %s')).toBe('Dana dana updated page: setup');

    // Read (and so keep) what the wiki shows now: the push must replace it.
    expect((await guest.api.ProjectWikis.show(project.id, 'Home', { renderHtml: true })).content).toBe(
      '<h1>Docs</h1>\n<p>See <a href="guides/setup">setup</a>.</p>',
    );
    expect((await guest.api.ProjectWikis.all(project.id, { withContent: true })).map((page) => page.slug)).toEqual(['Home', 'guides/setup']);

    await mkdir(join(clone, 'ops'), { recursive: true });
    await writeFile(join(clone, 'ops/On-call-rota.md'), '* Monday: Dana\n');
    await writeFile(join(clone, 'Home.md'), '# Docs\n\nPushed over git.\n');
    await gitIn(clone, 'add', '.');
    await gitIn(clone, 'commit', '--quiet', '-m', 'Rota and a new home');
    await gitIn(clone, 'push', '--quiet', 'origin', 'HEAD');
    const pushedSha = await gitIn(clone, 'rev-parse', 'HEAD');

    const rota = await guest.api.ProjectWikis.show(project.id, 'ops/On-call-rota');
    expect(rota).toEqual({
      format: 'markdown',
      slug: 'ops/On-call-rota',
      title: 'On call rota',
      content: '* Monday: Dana\n',
      encoding: 'UTF-8',
      front_matter: {},
    });
    expect((await guest.api.ProjectWikis.show(project.id, 'Home')).content).toBe('# Docs\n\nPushed over git.\n');
    expect((await guest.api.ProjectWikis.show(project.id, 'Home', { renderHtml: true })).content).toBe('<h1>Docs</h1>\n<p>Pushed over git.</p>');
    const listed = await guest.api.ProjectWikis.all(project.id, { withContent: true });
    expect(listed.map((page) => [page.slug, page.content])).toEqual([
      ['Home', '# Docs\n\nPushed over git.\n'],
      ['guides/setup', 'Install it twice.'],
      ['ops/On-call-rota', '* Monday: Dana\n'],
    ]);
    const older = await guest.api.ProjectWikis.show(project.id, 'Home', { version: `${pushedSha}~1` });
    expect(older.content).toBe('# Docs\n\nSee [setup](guides/setup).');

    // A Guest clones but may not push.
    const guestClone = join(work, 'guest.wiki');
    await gitIn(work, 'clone', '--quiet', wikiUrl(guest), guestClone);
    await writeFile(join(guestClone, 'Home.md'), 'vandalised');
    await gitIn(guestClone, 'commit', '--quiet', '-am', 'nope');
    await expect(gitIn(guestClone, 'push', '--quiet', 'origin', 'HEAD')).rejects.toThrow(/not allowed to push code/);
    expect((await guest.api.ProjectWikis.show(project.id, 'Home')).content).toBe('# Docs\n\nPushed over git.\n');
  });

  it('commits attachments into the wiki, where a clone sees them', async () => {
    const attachment = await developer.api.ProjectWikis.uploadAttachment(project.id, { content: new Blob(['diagram']), filename: 'flow.png' });
    expect(attachment).toEqual({
      file_name: 'flow.png',
      file_path: expect.stringMatching(/^uploads\/[0-9a-f]{32}\/flow\.png$/),
      branch: 'main',
      link: { url: attachment.file_path, markdown: `![flow](${attachment.file_path})` },
    });
    const clone = join(work, 'docs.wiki');
    await gitIn(clone, 'pull', '--quiet', 'origin', 'main');
    expect(await readFile(join(clone, attachment.file_path as string), 'utf8')).toBe('diagram');
    expect(await gitIn(clone, 'log', '-1', '--format=%s')).toBe('Upload attachment flow.png');
  });

  it('works through python-gitlab: create, get by slug, save, list with content, delete', async () => {
    const result = await python(
      server,
      developer.token,
      `project = gl.projects.get(${project.id})
page = project.wikis.create({'title': 'py/From Python', 'content': 'Hello from python', 'format': 'markdown'})
fetched = project.wikis.get('py/From-Python')
fetched.content = 'Edited from python'
fetched.save()
again = project.wikis.get('py/From-Python')
listed = [(p.slug, p.content) for p in project.wikis.list(with_content=True, get_all=True) if p.slug.startswith('py/')]
# This python-gitlab has no wiki upload helper: its raw POST sends the same multipart body.
attachment = gl.http_post('/projects/${project.id}/wikis/attachments', files={'file': ('notes.txt', b'text file')})
print(json.dumps({'created': page.slug, 'title': fetched.title, 'content': again.content, 'listed': listed, 'attachment': attachment}))`,
    );
    expect(result).toEqual({
      created: 'py/From-Python',
      title: 'From Python',
      content: 'Edited from python',
      listed: [['py/From-Python', 'Edited from python']],
      attachment: {
        file_name: 'notes.txt',
        file_path: expect.stringMatching(/^uploads\/[0-9a-f]{32}\/notes\.txt$/),
        branch: 'main',
        link: { url: result.attachment.file_path, markdown: `[notes.txt](${result.attachment.file_path})` },
      },
    });
    const removed = await python(
      server,
      server.rootToken,
      `project = gl.projects.get(${project.id})
project.wikis.delete('py/From-Python')
print(json.dumps([p.slug for p in project.wikis.list(get_all=True)]))`,
    );
    expect(removed).not.toContain('py/From-Python');
  });

  it('deletes pages as a Maintainer, and refuses everything while the wiki is disabled', async () => {
    await admin.ProjectWikis.remove(project.id, 'ops/On-call-rota');
    expect((await failureOf(guest.api.ProjectWikis.show(project.id, 'ops/On-call-rota'))).status).toBe(404);
    await admin.Projects.edit(project.id, { wikiAccessLevel: 'disabled' });
    expect(await failureOf(developer.api.ProjectWikis.all(project.id))).toEqual({ status: 403, description: '403 Forbidden' });
    expect((await failureOf(admin.ProjectWikis.show(project.id, 'Home'))).status).toBe(403);
    await expect(gitIn(work, 'clone', '--quiet', wikiUrl(developer), join(work, 'disabled.wiki'))).rejects.toThrow(/not allowed to download code/);
  });
});

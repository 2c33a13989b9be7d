import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { notesPlugin } from '@forgekit/plugin-notes';
import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { repositoryReadRef } from '@forgekit/plugin-repositories/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WikiPageMetaEntity } from '../entities/wiki-page-meta.js';
import { wikisPlugin } from '../plugin.js';

const run = promisify(execFile);
const PAGE_KEYS = ['format', 'slug', 'title', 'content', 'encoding', 'front_matter'];

describe('project wikis', () => {
  let app: TestApp;
  let base: string;

  const create = (body: Record<string, unknown>, token = 'developer') => app.post(base, body, { token });
  const show = (slug: string, token = 'guest', query: Record<string, string> = {}) => app.get(`${base}/${encodeURIComponent(slug)}`, { token, query });
  /** The wiki repository's directory on disk. */
  const gitDir = async () => (await app.kernel.resolve(repositoryReadRef).find({ kind: 'wiki', containerId: app.project.id }))!.gitDir;
  const gitOut = async (...args: string[]) => (await run('git', ['--git-dir', await gitDir(), ...args])).stdout;

  beforeAll(async () => {
    app = await createTestApp({ plugins: [repositoriesPlugin, notesPlugin, wikisPlugin] });
    base = `/api/v4/projects/${app.project.id}/wikis`;
  });
  afterAll(() => app.close());

  describe('POST /projects/:id/wikis', () => {
    it('creates a page as a commit by the caller, answering the six keys with 201', async () => {
      const res = await create({ title: 'Home', content: '# Welcome\n\nHello' });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(PAGE_KEYS);
      expect(res.body).toEqual({ format: 'markdown', slug: 'Home', title: 'Home', content: '# Welcome\n\nHello', encoding: 'UTF-8', front_matter: {} });
      expect(await gitOut('show', 'HEAD:Home.md')).toBe('# Welcome\n\nHello');
      expect((await gitOut('log', '-1', '--format=%an|%ae|%s')).trim()).toBe(
        `${app.users.developer.name}|${app.users.developer.email}|developer created page: Home`,
      );
    });

    it('makes directories from `/`, squishes each part and turns spaces into `-`', async () => {
      const res = await create({ title: '  guides /  getting   started  ', content: 'Start here', format: 'asciidoc' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ slug: 'guides/getting-started', title: 'getting started', format: 'asciidoc' });
      expect(await gitOut('show', 'HEAD:guides/getting-started.asciidoc')).toBe('Start here');
    });

    it('writes each format with its extension', async () => {
      for (const [format, extension] of [
        ['rdoc', 'rdoc'],
        ['org', 'org'],
      ]) {
        expect((await create({ title: `in ${format}`, content: 'x', format })).status).toBe(201);
        expect(await gitOut('show', `HEAD:in-${format}.${extension}`)).toBe('x');
      }
    });

    it('keeps YAML front matter in the file and answers it apart, its title winning', async () => {
      const text = '---\ntitle: Release plan\nowner: ops\n---\n# Plan\n';
      const res = await create({ title: 'plans/2027', content: text });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        format: 'markdown',
        slug: 'plans/2027',
        title: 'Release plan',
        content: '# Plan\n',
        encoding: 'UTF-8',
        front_matter: { title: 'Release plan', owner: 'ops' },
      });
      expect(await gitOut('show', 'HEAD:plans/2027.md')).toBe(text);
      expect((await show('plans/2027')).body).toEqual(res.body);
      const html = await show('plans/2027', 'guest', { render_html: 'true' });
      expect(html.body.content).toBe('<h1>Plan</h1>');
      await app.delete(`${base}/${encodeURIComponent('plans/2027')}`, { token: 'maintainer' });
    });

    it("answers Grape's errors for missing params and an unknown format", async () => {
      expect((await create({})).body).toEqual({ error: 'title is missing, content is missing' });
      expect((await create({ title: 'x' })).body).toEqual({ error: 'content is missing' });
      const res = await create({ title: 'x', content: 'y', format: 'textile' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'format does not have a valid value' });
    });

    it('refuses blank titles and content, long titles and a title already taken', async () => {
      const blank = await create({ title: ' ', content: '' });
      expect(blank.status).toBe(400);
      expect(blank.body).toEqual({ message: { title: ["can't be blank"], content: ["can't be blank"] } });
      expect((await create({ title: 'a'.repeat(246), content: 'x' })).body).toEqual({ message: { title: ['exceeds the limit of 245 bytes'] } });
      const taken = await create({ title: 'Home', content: 'again', format: 'org' });
      expect(taken.status).toBe(400);
      expect(taken.body).toEqual({ message: { base: ['Duplicate page: A page with that title already exists'] } });
      const traversal = await create({ title: '../escape', content: 'x' });
      expect(traversal.status).toBe(400);
      expect(traversal.body).toEqual({ message: { base: ['Path cannot include directory traversal'] } });
      expect((await show('../Home')).status).toBe(404);
      expect(await gitOut('show', 'HEAD:Home.md')).toBe('# Welcome\n\nHello');
    });
  });

  describe('GET /projects/:id/wikis', () => {
    it('lists pages by slug with their meta ids, and with content on request', async () => {
      const res = await app.get(base, { token: 'guest' });
      expect(res.status).toBe(200);
      expect(res.body.map((page: { slug: string }) => page.slug)).toEqual(['Home', 'guides/getting-started', 'in-org', 'in-rdoc']);
      expect(Object.keys(res.body[0])).toEqual(['format', 'slug', 'title', 'wiki_page_meta_id']);
      expect(res.body[1]).toEqual({ format: 'asciidoc', slug: 'guides/getting-started', title: 'getting started', wiki_page_meta_id: expect.any(Number) });
      const again = await app.get(base, { token: 'reporter' });
      expect(again.body).toEqual(res.body);
      const full = await app.get(base, { token: 'guest', query: { with_content: true } });
      expect(full.body[0]).toEqual({ format: 'markdown', slug: 'Home', title: 'Home', content: '# Welcome\n\nHello', encoding: 'UTF-8', front_matter: {} });
    });
  });

  describe('GET /projects/:id/wikis/:slug', () => {
    it('reads a page by its URL-encoded slug, rendered on request', async () => {
      const res = await show('guides/getting-started');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ slug: 'guides/getting-started', content: 'Start here' });
      const html = await show('Home', 'guest', { render_html: 'true' });
      expect(html.body.content).toBe('<h1>Welcome</h1>\n<p>Hello</p>');
      expect(Object.keys(html.body)).toEqual(PAGE_KEYS);
    });

    it('renders AsciiDoc apart from this thread, escapes formats it cannot render, and sanitises both', async () => {
      await create({ title: 'unsafe', content: '<script>alert(1)</script>\n\n[x](javascript:alert(1)) <b>ok</b>' });
      const html = await show('unsafe', 'guest', { render_html: 'true' });
      expect(html.body.content).not.toContain('<script');
      expect(html.body.content).not.toContain('href="javascript');
      expect(html.body.content).toContain('<b>ok</b>');
      await create({
        title: 'adoc',
        content: '== Setup\n\nRun *this*.\n\n++++\n<script>alert(1)</script>\n++++\n\ninclude::/etc/passwd[]\n',
        format: 'asciidoc',
      });
      const adoc = (await show('adoc', 'guest', { render_html: 'true' })).body.content as string;
      expect(adoc).toContain('<h2>Setup</h2>');
      expect(adoc).toContain('<p>Run <strong>this</strong>.</p>');
      expect(adoc).not.toContain('<script');
      expect(adoc).not.toContain('root:');
      // asciidoctor.js ran in a worker: this thread's built-ins carry none of Opal's `$` methods.
      for (const builtin of [String.prototype, Array.prototype, Object.prototype, Number.prototype, Function.prototype]) {
        expect(Object.getOwnPropertyNames(builtin).filter((name) => name.startsWith('$'))).toEqual([]);
      }
      expect((Object('text') as Record<string, unknown>).$ref).toBeUndefined();
      await create({ title: 'raw', content: '<i>hi</i> & bye', format: 'rdoc' });
      expect((await show('raw', 'guest', { render_html: 'true' })).body.content).toBe('<pre>&lt;i&gt;hi&lt;/i&gt; &amp; bye</pre>');
    });

    it('reads an older version by commit sha; unknown pages and versions are 404', async () => {
      const before = (await gitOut('rev-parse', 'HEAD')).trim();
      await app.put(`${base}/Home`, { content: 'changed' }, { token: 'developer' });
      expect((await show('Home')).body.content).toBe('changed');
      expect((await show('Home', 'guest', { version: before })).body.content).toBe('# Welcome\n\nHello');
      for (const res of [await show('missing'), await show('Home', 'guest', { version: 'f'.repeat(40) }), await show('Home', 'guest', { version: '--all' })]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: '404 Wiki Page Not Found' });
      }
    });
  });

  describe('PUT /projects/:id/wikis/:slug', () => {
    it('changes content and format, keeping the title, as a commit', async () => {
      const res = await app.put(`${base}/in-rdoc`, { content: '* one', format: 'markdown' }, { token: 'developer' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ format: 'markdown', slug: 'in-rdoc', title: 'in rdoc', content: '* one', encoding: 'UTF-8', front_matter: {} });
      const files = await gitOut('ls-tree', '--name-only', 'HEAD');
      expect(files).toContain('in-rdoc.md');
      expect(files).not.toContain('in-rdoc.rdoc');
      expect((await gitOut('log', '-1', '--format=%s')).trim()).toBe('developer updated page: in rdoc');
    });

    it('renames the file on a title change: same directory without `/`, the root with a leading `/`', async () => {
      const ids = async () =>
        new Map((await app.get(base, { token: 'guest' })).body.map((p: { slug: string; wiki_page_meta_id: number }) => [p.slug, p.wiki_page_meta_id]));
      const metaId = (await ids()).get('guides/getting-started');
      const moved = await app.put(`${base}/${encodeURIComponent('guides/getting-started')}`, { title: 'First steps' }, { token: 'developer' });
      expect(moved.body).toMatchObject({ slug: 'guides/First-steps', title: 'First steps', format: 'asciidoc', content: 'Start here' });
      expect((await ids()).get('guides/First-steps')).toBe(metaId);
      const root = await app.put(`${base}/${encodeURIComponent('guides/First-steps')}`, { title: '/Top' }, { token: 'developer' });
      expect(root.body.slug).toBe('Top');
      expect(await gitOut('show', 'HEAD:Top.asciidoc')).toBe('Start here');
      expect((await show('guides/First-steps')).status).toBe(404);
    });

    it('needs one of content, title and format; refuses a title taken and unknown pages', async () => {
      expect((await app.put(`${base}/Top`, {}, { token: 'developer' })).body).toEqual({
        error: 'content, title, format are missing, at least one parameter must be provided',
      });
      const taken = await app.put(`${base}/Top`, { title: 'Home' }, { token: 'developer' });
      expect(taken.status).toBe(400);
      expect(taken.body).toEqual({ message: { base: ['Duplicate page: A page with that title already exists'] } });
      expect((await app.put(`${base}/Top`, { content: '' }, { token: 'developer' })).body).toEqual({ message: { content: ["can't be blank"] } });
      const missing = await app.put(`${base}/nope`, { content: 'x' }, { token: 'developer' });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 Wiki Page Not Found' });
    });
  });

  describe('roles and the wiki feature', () => {
    it('lets Guests read, Developers write and only Maintainers delete', async () => {
      expect((await create({ title: 'by guest', content: 'x' }, 'reporter')).status).toBe(403);
      expect((await app.put(`${base}/Home`, { content: 'x' }, { token: 'reporter' })).body).toEqual({ message: '403 Forbidden' });
      const byDeveloper = await app.delete(`${base}/Top`, { token: 'developer' });
      expect(byDeveloper.status).toBe(403);
      expect(byDeveloper.body).toEqual({ message: '403 Forbidden' });
      const res = await app.delete(`${base}/Top`, { token: 'maintainer' });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await show('Top')).status).toBe(404);
      expect((await gitOut('log', '-1', '--format=%s')).trim()).toBe('maintainer deleted page: Top');
      expect((await app.delete(`${base}/Top`, { token: 'maintainer' })).status).toBe(404);
    });

    it('takes no writes on an archived project, and still reads', async () => {
      const project = `/api/v4/projects/${app.project.id}`;
      expect((await app.post(`${project}/archive`, {}, { token: 'owner' })).status).toBe(201);
      const refused = await create({ title: 'archived', content: 'x' }, 'maintainer');
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ message: '403 Forbidden' });
      expect((await app.put(`${base}/Home`, { content: 'x' }, { token: 'maintainer' })).status).toBe(403);
      expect((await show('Home')).status).toBe(200);
      expect((await app.post(`${project}/unarchive`, {}, { token: 'owner' })).status).toBe(201);
      expect((await show('archived')).status).toBe(404);
    });

    it('hides a private project from others and anonymous callers', async () => {
      expect((await app.get(base, { token: 'nonMember' })).body).toEqual({ message: '404 Project Not Found' });
      expect((await app.get(base)).status).toBe(404);
      expect((await app.post(base, { title: 'x', content: 'y' })).status).toBe(401);
    });

    it('answers 403 to everybody while the wiki is disabled; members only when private', async () => {
      const setWiki = async (level: string) =>
        expect((await app.put(`/api/v4/projects/${app.project.id}`, { wiki_access_level: level }, { token: 'owner' })).status).toBe(200);
      await setWiki('disabled');
      for (const token of ['guest', 'owner', 'admin']) {
        const res = await app.get(base, { token });
        expect(res.status, token).toBe(403);
        expect(res.body).toEqual({ message: '403 Forbidden' });
      }
      expect((await create({ title: 'x', content: 'y' }, 'maintainer')).status).toBe(403);
      await setWiki('private');
      expect((await app.put(`/api/v4/groups/${app.group.id}`, { visibility: 'public' }, { token: 'owner' })).status).toBe(200);
      expect((await app.put(`/api/v4/projects/${app.project.id}`, { visibility: 'public' }, { token: 'owner' })).status).toBe(200);
      expect((await app.get(base)).status).toBe(403);
      expect((await app.get(base, { token: 'nonMember' })).status).toBe(403);
      expect((await app.get(base, { token: 'guest' })).status).toBe(200);
      await setWiki('enabled');
      const anonymous = await app.get(base);
      expect(anonymous.status).toBe(200);
      expect(anonymous.body.length).toBeGreaterThan(0);
      expect((await create({ title: 'x', content: 'y' }, 'nonMember')).status).toBe(403);
      expect((await app.put(`/api/v4/projects/${app.project.id}`, { visibility: 'private' }, { token: 'owner' })).status).toBe(200);
    });
  });

  describe('POST /projects/:id/wikis/attachments', () => {
    const form = (name: string, bytes: string, branch?: string) => {
      const body = new FormData();
      body.append('file', new Blob([bytes]), name);
      if (branch) body.append('branch', branch);
      return body;
    };

    it('commits the file under uploads/<32 hex>/ and answers its Markdown', async () => {
      const res = await app.post(`${base}/attachments`, form('dk.png', 'png-bytes'), { token: 'developer' });
      expect(res.status).toBe(201);
      const path = res.body.file_path as string;
      expect(path).toMatch(/^uploads\/[0-9a-f]{32}\/dk\.png$/);
      expect(res.body).toEqual({ file_name: 'dk.png', file_path: path, branch: 'main', link: { url: path, markdown: `![dk](${path})` } });
      expect(await gitOut('show', `HEAD:${path}`)).toBe('png-bytes');
      expect((await gitOut('log', '-1', '--format=%s')).trim()).toBe('Upload attachment dk.png');
      const text = await app.post(`${base}/attachments`, form('notes.txt', 'hi', 'drafts'), { token: 'developer' });
      expect(text.body).toMatchObject({ branch: 'drafts', link: { markdown: `[notes.txt](${text.body.file_path})` } });
      expect(await gitOut('show', `drafts:${text.body.file_path}`)).toBe('hi');
      // Attachments are no pages.
      expect((await app.get(base, { token: 'guest' })).body.map((page: { slug: string }) => page.slug)).not.toContain(path);
    });

    it('needs a file and a Developer', async () => {
      const missing = await app.post(`${base}/attachments`, {}, { token: 'developer' });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ error: 'file is missing' });
      expect((await app.post(`${base}/attachments`, form('a.txt', 'x'), { token: 'reporter' })).status).toBe(403);
    });
  });

  describe('notes and project removal', () => {
    it('serves the notes of a wiki page by its meta id', async () => {
      const [home] = (await app.get(base, { token: 'guest' })).body;
      const res = await app.get(`/api/v4/projects/${app.project.id}/wiki_pages/${home.wiki_page_meta_id}/notes`, { token: 'guest' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
      const missing = await app.get(`/api/v4/projects/${app.project.id}/wiki_pages/999999/notes`, { token: 'guest' });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 WikiPage::Meta Not Found' });
    });

    it('removes the wiki repository and page records with the project', async () => {
      const dir = await gitDir();
      const { database } = app.kernel;
      expect(await database.count(database.from(WikiPageMetaEntity).where({ projectId: app.project.id }))).toBeGreaterThan(0);
      expect((await app.delete(`/api/v4/projects/${app.project.id}`, { token: 'owner' })).status).toBe(202);
      await expect.poll(() => existsSync(dir)).toBe(false);
      await expect.poll(() => database.count(database.from(WikiPageMetaEntity).where({ projectId: app.project.id }))).toBe(0);
      expect(await app.kernel.resolve(repositoryReadRef).find({ kind: 'wiki', containerId: app.project.id })).toBeNull();
    });
  });
});

import { writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { uploadsServiceRef } from '@forgekit/plugin-uploads/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, failureOf, type Api } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';
import { python } from './support/python-gitlab.js';

const MIB = 1024 * 1024;
/** The start of a PNG file: enough for a browser to call it one. */
const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 7)]);

/**
 * POSTs a multipart upload of `size` bytes generated as the socket takes them, so the client
 * holds none of it; resolves with the status the server answered (or `closed`), as soon as it
 * answers, and the highest resident memory of this process (client and server) seen meanwhile.
 */
function streamUpload(url: string, token: string, size: number): Promise<{ status: string; peakRss: number }> {
  const boundary = 'forgekit-stream';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 5);
  return new Promise((resolve) => {
    let answered = false;
    const finish = (status: string) => {
      if (answered) return;
      answered = true;
      clearInterval(sampler);
      resolve({ status, peakRss: Math.max(peakRss, process.memoryUsage().rss) });
      req.destroy();
    };
    // No Content-Length: the server learns the size only as the bytes arrive.
    const req = request(url, { method: 'POST', headers: { 'PRIVATE-TOKEN': token, 'Content-Type': `multipart/form-data; boundary=${boundary}` } }, (res) => {
      res.resume();
      finish(String(res.statusCode));
    });
    req.on('error', () => finish('closed'));
    const chunk = Buffer.alloc(256 * 1024, 0x61);
    let left = size;
    req.write(head);
    const pump = () => {
      while (left > 0 && !answered) {
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      if (!answered) req.end(tail);
    };
    pump();
  });
}

/**
 * A team's project page: screenshots uploaded for an issue and opened from their Markdown
 * links, and the badges on the page, through @gitbeaker/rest, python-gitlab and plain GETs
 * as a browser sends them.
 */
describe('uploads and badges through @gitbeaker/rest, python-gitlab and a browser', () => {
  let server: ListeningServer;
  let admin: Api;
  let group: { id: number; full_path: string };
  let site: { id: number; web_url: string; path_with_namespace: string };
  let internal: { id: number; web_url: string };

  beforeAll(async () => {
    server = await startListeningServer();
    admin = clientFor(server, server.rootToken);
    group = (await admin.Groups.create('Docs', 'docs', { visibility: 'public' })) as unknown as typeof group;
    site = (await admin.Projects.create({
      name: 'Site',
      path: 'site',
      namespaceId: group.id,
      visibility: 'public',
      initializeWithReadme: true,
    })) as unknown as typeof site;
    internal = (await admin.Projects.create({
      name: 'Internal',
      path: 'internal',
      namespaceId: group.id,
      visibility: 'private',
    })) as unknown as typeof internal;
  });
  afterAll(() => server?.close());

  describe('uploads', () => {
    it('uploads an image and opens its Markdown link', async () => {
      const upload = await admin.Projects.uploadForReference(site.id, { content: new Blob([png], { type: 'image/png' }), filename: 'screen shot.png' });
      expect(upload.alt).toBe('screen_shot');
      expect(upload.markdown).toMatch(/^!\[screen_shot\]\(\/uploads\/[0-9a-f]{32}\/screen_shot\.png\)$/);
      expect(upload.full_path).toBe(`/-/project/${site.id}/uploads/${upload.url.split('/')[2]}/screen_shot.png`);

      // The link as a browser on the project's page resolves it: no token, a public project.
      const link = /\]\(([^)]+)\)/.exec(upload.markdown)![1]!;
      const opened = await fetch(`${site.web_url}${link}`);
      expect(opened.status).toBe(200);
      expect(opened.headers.get('content-type')).toBe('image/png');
      expect(opened.headers.get('content-disposition')).toBe(`inline; filename="screen_shot.png"; filename*=UTF-8''screen_shot.png`);
      expect(Buffer.from(await opened.arrayBuffer()).equals(png)).toBe(true);

      const byFullPath = await fetch(`${server.url}${upload.full_path}`);
      expect(Buffer.from(await byFullPath.arrayBuffer()).equals(png)).toBe(true);
    });

    it("opens a private project's upload only with a token", async () => {
      const upload = await admin.Projects.uploadForReference(internal.id, { content: new Blob(['secret plan']), filename: 'plan.txt' });
      expect(upload.markdown).toBe(`[plan.txt](${upload.url})`);
      expect((await fetch(`${internal.web_url}${upload.url}`)).status).toBe(404);
      const withToken = await fetch(`${internal.web_url}${upload.url}?private_token=${server.rootToken}`);
      expect(withToken.status).toBe(200);
      expect(withToken.headers.get('content-disposition')).toBe(`attachment; filename="plan.txt"; filename*=UTF-8''plan.txt`);
      expect(await withToken.text()).toBe('secret plan');
    });

    it('lists, downloads and removes uploads as a Maintainer through gitbeaker', async () => {
      const listed = await admin.ProjectMarkdownUploads.all(site.id);
      expect(listed.map((item) => item.filename)).toEqual(['screen_shot.png']);
      expect(listed[0]).toMatchObject({ size: png.length, uploaded_by: { username: 'root' } });
      const blob = await admin.ProjectMarkdownUploads.download(site.id, listed[0]!.id);
      expect(Buffer.from(await blob.arrayBuffer()).equals(png)).toBe(true);

      const extra = await admin.Projects.uploadForReference(site.id, { content: new Blob(['draft']), filename: 'draft.md' });
      const [, , secret, name] = extra.url.split('/');
      // gitbeaker hands a text file back as a string, other files as a Blob.
      const bySecret: unknown = await admin.ProjectMarkdownUploads.download(site.id, secret!, name!);
      expect(bySecret instanceof Blob ? await bySecret.text() : bySecret).toBe('draft');
      await admin.ProjectMarkdownUploads.remove(site.id, secret!, name!);
      expect(await failureOf(admin.ProjectMarkdownUploads.download(site.id, secret!, name!))).toMatchObject({ status: 404 });
      expect((await admin.ProjectMarkdownUploads.all(site.id)).map((item) => item.filename)).toEqual(['screen_shot.png']);
    });

    it("lists, downloads and removes a group's uploads through gitbeaker", async () => {
      // GitLab has no group POST: a group's files arrive through the uploads service.
      const incoming = join(server.kernel.files.root, '..', 'group-logo.incoming');
      await writeFile(incoming, png);
      const kept = await server.kernel.resolve(uploadsServiceRef).create({ kind: 'group', id: group.id }, { path: incoming, filename: 'logo.png' }, null);
      const listed = await admin.GroupMarkdownUploads.all(group.id);
      expect(listed).toEqual([{ id: kept.id, size: png.length, filename: 'logo.png', created_at: expect.any(String), uploaded_by: null }]);
      const blob = await admin.GroupMarkdownUploads.download(group.id, kept.id);
      expect(Buffer.from(await blob.arrayBuffer()).equals(png)).toBe(true);
      const opened = await fetch(`${server.url}${kept.fullPath}`);
      expect(opened.headers.get('content-type')).toBe('image/png');
      await admin.GroupMarkdownUploads.remove(group.id, kept.id);
      expect(await admin.GroupMarkdownUploads.all(group.id)).toEqual([]);
      expect((await fetch(`${server.url}${kept.fullPath}`)).status).toBe(404);
    });

    it('uploads through python-gitlab', async () => {
      const result = await python(
        server,
        server.rootToken,
        `project = gl.projects.get(${site.id})
uploaded = project.upload('diagram.gif', filedata=b'GIF89a')
print(json.dumps(uploaded))`,
      );
      expect(result.alt).toBe('diagram');
      expect(result.markdown).toBe(`![diagram](${result.url})`);
      expect(await (await fetch(`${site.web_url}${result.url}`)).text()).toBe('GIF89a');
    });

    it("refuses an upload past max_attachment_size with 413 while it streams, and the server's memory does not grow by the body's size", async () => {
      await admin.ApplicationSettings.edit({ maxAttachmentSize: 4 } as never);
      try {
        const url = `${server.url}/api/v4/projects/${site.id}/uploads`;
        const size = 96 * MIB;
        const before = process.memoryUsage().rss;
        const refused = await streamUpload(url, server.rootToken, size);
        expect(refused.status).toBe('413');
        // The bytes past the limit were never held: far less growth than the body's 96 MiB.
        expect(refused.peakRss - before).toBeLessThan(size / 4);
        expect((await admin.ProjectMarkdownUploads.all(site.id)).map((item) => item.filename)).not.toContain('huge.bin');

        // Within the limit, a streamed file is kept whole.
        const kept = await streamUpload(url, server.rootToken, 4 * MIB);
        expect(kept.status).toBe('201');
        const listed = await admin.ProjectMarkdownUploads.all(site.id);
        expect(listed.find((item) => item.filename === 'huge.bin')?.size).toBe(4 * MIB);
      } finally {
        await admin.ApplicationSettings.edit({ maxAttachmentSize: 100 } as never);
      }
    });
  });

  describe('badges', () => {
    it("shows the group's and the project's badges on the project, rendered from the project and its repository", async () => {
      const head = (await admin.Branches.show(site.id, 'main')).commit.id;
      const groupBadge = await admin.GroupBadges.add(group.id, 'https://%{service_server}/%{project_path}', 'https://img.example.com/%{project_id}.svg', {
        name: 'Home',
      });
      // The group's first project renders its badges.
      expect(groupBadge.rendered_link_url).toBe(`https://127.0.0.1/${site.path_with_namespace}`);
      const badge = await admin.ProjectBadges.add(
        site.id,
        'https://ci.example.com/%{project_path}/-/commit/%{commit_sha}',
        'https://ci.example.com/%{default_branch}.svg',
        {
          name: 'Build',
        },
      );
      expect(badge).toMatchObject({
        kind: 'project',
        rendered_link_url: `https://ci.example.com/docs/site/-/commit/${head}`,
        rendered_image_url: 'https://ci.example.com/main.svg',
      });

      const anonymous = clientFor(server, '');
      const shown = await anonymous.ProjectBadges.all(site.id);
      expect(shown.map((item) => [item.name, item.kind])).toEqual([
        ['Home', 'group'],
        ['Build', 'project'],
      ]);
      expect(await admin.ProjectBadges.preview(site.id, 'https://x/%{project_name}', 'https://x/%{latest_tag}')).toEqual({
        name: null,
        link_url: 'https://x/%{project_name}',
        image_url: 'https://x/%{latest_tag}',
        rendered_link_url: 'https://x/site',
        rendered_image_url: 'https://x/%{latest_tag}',
      });
      expect(await failureOf(admin.ProjectBadges.remove(site.id, groupBadge.id))).toEqual({
        status: 403,
        description: 'To delete a Group badge please use the Group endpoint',
      });
      expect(await failureOf(admin.ProjectBadges.add(site.id, 'whatever', 'https://x'))).toMatchObject({ status: 400 });

      const edited = await admin.ProjectBadges.edit(site.id, badge.id, { name: 'CI' });
      expect(edited).toMatchObject({ name: 'CI', link_url: badge.link_url });
      expect(await anonymous.ProjectBadges.show(site.id, groupBadge.id)).toMatchObject({ name: 'Home', kind: 'group' });
      expect(await admin.GroupBadges.all(group.id)).toMatchObject([{ id: groupBadge.id, kind: 'group' }]);
      expect(await admin.GroupBadges.edit(group.id, groupBadge.id, { name: 'Start' })).toMatchObject({ name: 'Start' });
      expect(await anonymous.GroupBadges.show(group.id, groupBadge.id)).toMatchObject({ name: 'Start' });
      expect(await admin.GroupBadges.preview(group.id, 'https://x/%{project_namespace}', 'https://x/i')).toMatchObject({ rendered_link_url: 'https://x/docs' });
      expect(await failureOf(anonymous.GroupBadges.preview(group.id, 'https://x', 'https://y'))).toMatchObject({ status: 401 });
      await admin.ProjectBadges.remove(site.id, badge.id);
      await admin.GroupBadges.remove(group.id, groupBadge.id);
      expect(await admin.ProjectBadges.all(site.id)).toEqual([]);
    });

    it('manages badges through python-gitlab', async () => {
      const result = await python(
        server,
        server.rootToken,
        `project = gl.projects.get(${site.id})
badge = project.badges.create({'link_url': 'https://docs.example.com/%{project_path}', 'image_url': 'https://img.example.com/%{project_name}.png', 'name': 'Docs'})
badge.link_url = 'https://docs.example.com/%{project_namespace}'
badge.save()
listed = [(b.name, b.rendered_link_url) for b in project.badges.list(get_all=True)]
rendered = project.badges.render('https://x/%{project_title}', 'https://x/%{project_id}')
group = gl.groups.get(${group.id})
gb = group.badges.create({'link_url': 'https://x/g', 'image_url': 'https://x/g.svg'})
group_listed = [b.id for b in group.badges.list(get_all=True)]
gb.delete()
badge.delete()
print(json.dumps({'listed': listed, 'rendered': rendered, 'group_listed': group_listed, 'group_badge': gb.id, 'left': len(project.badges.list(get_all=True))}))`,
      );
      expect(result).toEqual({
        listed: [['Docs', 'https://docs.example.com/docs']],
        rendered: {
          name: null,
          link_url: 'https://x/%{project_title}',
          image_url: 'https://x/%{project_id}',
          rendered_link_url: 'https://x/Site',
          rendered_image_url: `https://x/${site.id}`,
        },
        group_listed: [result.group_badge],
        group_badge: expect.any(Number),
        left: 0,
      });
    });
  });

  it("removes a project's uploads and badges with the project", async () => {
    const doomed = (await admin.Projects.create({ name: 'Doomed', path: 'doomed', namespaceId: group.id, visibility: 'public' })) as unknown as {
      id: number;
      web_url: string;
    };
    const upload = await admin.Projects.uploadForReference(doomed.id, { content: new Blob([png]), filename: 'gone.png' });
    await admin.ProjectBadges.add(doomed.id, 'https://x', 'https://y');
    expect((await fetch(`${server.url}${upload.full_path}`)).status).toBe(200);
    await admin.Projects.remove(doomed.id);
    expect((await fetch(`${server.url}${upload.full_path}`)).status).toBe(404);
    expect(await server.kernel.files.open(`uploads/project/${doomed.id}/${upload.url.split('/')[2]}/gone.png`)).toBeNull();
  });
});

import { existsSync, readdirSync } from 'node:fs';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UploadEntity } from '../entities/upload.js';
import { uploadsPlugin } from '../plugin.js';

const SECRET = /^[0-9a-f]{32}$/;
const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

const form = (name: string, bytes: Uint8Array | string, type = 'application/octet-stream') => {
  const body = new FormData();
  body.append('file', new Blob([bytes], { type }), name);
  return body;
};

describe('project uploads', () => {
  let app: TestApp;
  let base: string;

  const upload = (name: string, bytes: Uint8Array | string, token = 'guest') => app.post(base, form(name, bytes), { token });
  /** The files kept for the test project, as `<secret>/<filename>`. */
  const storedFiles = () => {
    const folder = app.kernel.files.path(`uploads/project/${app.project.id}`);
    if (!existsSync(folder)) return [];
    return readdirSync(folder).flatMap((secret) => readdirSync(`${folder}/${secret}`).map((name) => `${secret}/${name}`));
  };

  beforeAll(async () => {
    app = await createTestApp({ plugins: [uploadsPlugin] });
    base = `/api/v4/projects/${app.project.id}/uploads`;
  });
  afterAll(() => app.close());

  describe('POST /projects/:id/uploads', () => {
    it('keeps an image for a Guest and answers its Markdown with the name as alt', async () => {
      const res = await upload('dk.png', png);
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(['id', 'alt', 'url', 'full_path', 'markdown']);
      const secret = res.body.url.split('/')[2];
      expect(secret).toMatch(SECRET);
      expect(res.body).toEqual({
        id: expect.any(Number),
        alt: 'dk',
        url: `/uploads/${secret}/dk.png`,
        full_path: `/-/project/${app.project.id}/uploads/${secret}/dk.png`,
        markdown: `![dk](/uploads/${secret}/dk.png)`,
      });
      expect(storedFiles()).toContain(`${secret}/dk.png`);
    });

    it('links other files by their whole name, and sanitises names so none leaves its folder', async () => {
      const text = await upload('release notes.txt', 'hello', 'developer');
      expect(text.status).toBe(201);
      expect(text.body).toMatchObject({ alt: 'release_notes.txt', markdown: `[release_notes.txt](${text.body.url})` });
      const sneaky = await upload('../../../../etc/passwd', 'x');
      expect(sneaky.status).toBe(201);
      expect(sneaky.body.url).toMatch(/^\/uploads\/[0-9a-f]{32}\/passwd$/);
      expect(storedFiles()).toContain(sneaky.body.url.slice('/uploads/'.length));
    });

    it('gives every upload its own secret, even for the same name', async () => {
      const first = await upload('same.txt', 'one');
      const second = await upload('same.txt', 'two');
      expect(first.body.url).not.toBe(second.body.url);
    });

    it('refuses a request without a file, or with a plain field instead (400), keeping nothing', async () => {
      const before = storedFiles().length;
      expect(await app.post(base, {}, { token: 'guest' })).toMatchObject({ status: 400, body: { error: 'file is missing' } });
      const plain = new FormData();
      plain.append('file', 'not a file');
      expect(await app.post(base, plain, { token: 'guest' })).toMatchObject({ status: 400, body: { error: 'file is invalid' } });
      expect(storedFiles()).toHaveLength(before);
    });

    it('hides a private project from strangers (404) and asks anonymous callers to sign in (401)', async () => {
      expect(await upload('x.png', png, 'nonMember')).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
      expect(await app.post(base, form('x.png', png), { token: null })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
      expect(await app.post('/api/v4/projects/999999/uploads', form('x.png', png), { token: 'admin' })).toMatchObject({
        status: 404,
        body: { message: '404 Project Not Found' },
      });
    });
  });

  describe('GET /projects/:id/uploads', () => {
    it('lists uploads newest first with their uploader, for Maintainers, paginated', async () => {
      const res = await app.get(base, { token: 'maintainer', query: { per_page: 2 } });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total')).toBe(String(5));
      expect(res.headers.get('x-next-page')).toBe('2');
      expect(res.body).toHaveLength(2);
      const all = (await app.get(base, { token: 'maintainer', query: { per_page: 100 } })).body as { id: number; filename: string }[];
      expect(all.map((item) => item.filename)).toEqual(['same.txt', 'same.txt', 'passwd', 'release_notes.txt', 'dk.png']);
      expect(all.map((item) => item.id)).toEqual([...all.map((item) => item.id)].sort((a, b) => b - a));
      const image = all.at(-1);
      expect(image).toEqual({
        id: expect.any(Number),
        size: png.length,
        filename: 'dk.png',
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        uploaded_by: { id: app.users.guest.id, name: 'Guest User', username: 'guest' },
      });
    });

    it('refuses Developers (403), strangers (404), and anonymous callers on a private project (404)', async () => {
      expect(await app.get(base, { token: 'developer' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
      expect(await app.get(base, { token: 'nonMember' })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
      expect(await app.get(base, { token: null })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    });
  });

  describe('downloads', () => {
    let image: { id: number; url: string };
    beforeAll(async () => {
      image = (await upload('test.jpg', png)).body;
    });
    const secretPath = () => `${base}${image.url.slice('/uploads'.length)}`;

    it('sends a file by id to Maintainers as an attachment, with its type and length', async () => {
      const res = await app.get(`${base}/${image.id}`, { token: 'maintainer' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="test.jpg"; filename*=UTF-8''test.jpg`);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect(res.headers.get('content-length')).toBe(String(png.length));
      expect(Buffer.from(res.text, 'latin1').length).toBeGreaterThan(0);
    });

    it('sends the exact bytes', async () => {
      const response = await app.kernel.fetch(new Request(`http://localhost${base}/${image.id}`, { headers: { 'PRIVATE-TOKEN': app.tokens.maintainer } }));
      expect(Buffer.from(await response.arrayBuffer()).equals(png)).toBe(true);
    });

    it('refuses downloads by id below Maintainer (403), and answers an unknown id with 404 Not found', async () => {
      expect(await app.get(`${base}/${image.id}`, { token: 'developer' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
      expect(await app.get(`${base}/999999`, { token: 'maintainer' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
      expect(await app.get(`${base}/9999999999`, { token: 'maintainer' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
      expect(await app.get(`${base}/abc`, { token: 'maintainer' })).toMatchObject({ status: 400, body: { error: 'upload_id is invalid' } });
    });

    it('sends a file by secret and name to anyone who sees the project', async () => {
      for (const token of ['guest', 'reporter', 'admin']) {
        const res = await app.get(secretPath(), { token });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-disposition')).toBe(`attachment; filename="test.jpg"; filename*=UTF-8''test.jpg`);
      }
    });

    it('answers a wrong secret or name with 404, strangers with 404, and path traversal with 400', async () => {
      const name = image.url.split('/').at(-1);
      expect(await app.get(`${base}/${'0'.repeat(32)}/${name}`, { token: 'guest' })).toMatchObject({ status: 404, body: { message: '404 Not Found' } });
      expect(await app.get(`${base}/invalid_secret/${name}`, { token: 'guest' })).toMatchObject({ status: 404, body: { message: '404 Not Found' } });
      expect(await app.get(`${secretPath()}x`, { token: 'guest' })).toMatchObject({ status: 404, body: { message: '404 Not Found' } });
      expect(await app.get(secretPath(), { token: 'nonMember' })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
      expect(await app.get(`${base}/${'0'.repeat(32)}/..%2F..%2Fsecrets.key`, { token: 'guest' })).toMatchObject({
        status: 400,
        body: { error: 'filename should be a valid file path' },
      });
    });
  });

  describe('DELETE', () => {
    it('removes an upload by id for Maintainers: the record and the file go', async () => {
      const created = (await upload('gone.txt', 'bye')).body;
      const kept = created.url.slice('/uploads/'.length);
      expect(storedFiles()).toContain(kept);
      expect(await app.delete(`${base}/${created.id}`, { token: 'developer' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
      const res = await app.delete(`${base}/${created.id}`, { token: 'maintainer' });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(storedFiles()).not.toContain(kept);
      expect(await app.get(`${base}/${created.id}`, { token: 'maintainer' })).toMatchObject({ status: 404 });
      expect(await app.delete(`${base}/${created.id}`, { token: 'maintainer' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    });

    it('removes an upload by secret and name for Maintainers; an unknown one is 400', async () => {
      const created = (await upload('by-secret.txt', 'bye')).body;
      const path = `${base}${created.url.slice('/uploads'.length)}`;
      expect(await app.delete(path, { token: 'guest' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
      expect(await app.delete(path, { token: null })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
      expect((await app.delete(path, { token: 'maintainer' })).status).toBe(204);
      expect(await app.get(path, { token: 'maintainer' })).toMatchObject({ status: 404, body: { message: '404 Not Found' } });
      expect(await app.delete(path, { token: 'maintainer' })).toMatchObject({
        status: 400,
        body: {
          message: "400 Bad request - The resource that you are attempting to access does not exist or you don't have permission to perform this action.",
        },
      });
    });
  });

  describe('the attachment size limit', () => {
    afterAll(async () => {
      await app.put('/api/v4/application/settings', { max_attachment_size: 100 }, { token: 'admin' });
    });

    it('refuses a file past max_attachment_size with 413 and keeps nothing; a file at the limit is kept', async () => {
      expect((await app.put('/api/v4/application/settings', { max_attachment_size: 1 }, { token: 'admin' })).status).toBe(200);
      const before = storedFiles().length;
      const over = await upload('big.bin', new Uint8Array(1024 * 1024 + 1));
      expect(over).toMatchObject({ status: 413, body: { message: '413 Request Entity Too Large' } });
      expect(storedFiles()).toHaveLength(before);
      expect(readdirSync(`${app.kernel.files.root}/../tmp/uploads`)).toEqual([]);

      const at = await upload('at-limit.bin', new Uint8Array(1024 * 1024));
      expect(at.status).toBe(201);
      expect(storedFiles()).toHaveLength(before + 1);
    });
  });

  describe('an archived project', () => {
    it('takes no new uploads, and still lets Maintainers remove them', async () => {
      const kept = (await upload('before-archiving.txt', 'x')).body;
      expect((await app.post(`/api/v4/projects/${app.project.id}/archive`, {}, { token: 'admin' })).status).toBe(201);
      try {
        expect(await upload('after.txt', 'x')).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
        expect((await app.delete(`${base}/${kept.id}`, { token: 'maintainer' })).status).toBe(204);
      } finally {
        await app.post(`/api/v4/projects/${app.project.id}/unarchive`, {}, { token: 'admin' });
      }
    });
  });

  describe('deleting what an upload belongs to', () => {
    it("shows a deleted uploader's files with no uploader", async () => {
      const user = await app.post(
        '/api/v4/users',
        { username: 'leaver', name: 'Leaver', email: 'leaver@example.com', password: 'Leaver-Secret-123' },
        { token: 'admin' },
      );
      await app.post(`/api/v4/projects/${app.project.id}/members`, { user_id: user.body.id, access_level: 10 }, { token: 'admin' });
      const token = await app.post(`/api/v4/users/${user.body.id}/personal_access_tokens`, { name: 'up', scopes: ['api'] }, { token: 'admin' });
      const created = (await app.post(base, form('left.txt', 'x'), { token: token.body.token })).body;
      expect((await app.delete(`/api/v4/users/${user.body.id}`, { token: 'admin' })).status).toBe(204);
      const listed = (await app.get(base, { token: 'maintainer', query: { per_page: 100 } })).body as { id: number; uploaded_by: unknown }[];
      expect(listed.find((item) => item.id === created.id)?.uploaded_by).toBeNull();
    });

    it("removes a project's uploads, records and files, with the project", async () => {
      const project = await app.post('/api/v4/projects', { name: 'Doomed', path: 'doomed', namespace_id: app.group.id }, { token: 'owner' });
      const doomed = `/api/v4/projects/${project.body.id}/uploads`;
      expect((await app.post(doomed, form('doomed.png', png), { token: 'owner' })).status).toBe(201);
      const records = () => app.kernel.database.count(app.kernel.database.from(UploadEntity).where({ ownerType: 'project', ownerId: project.body.id }));
      expect(await records()).toBe(1);
      const folder = app.kernel.files.path(`uploads/project/${project.body.id}`);
      expect(existsSync(folder)).toBe(true);
      expect((await app.delete(`/api/v4/projects/${project.body.id}`, { token: 'owner' })).status).toBe(202);
      expect(existsSync(folder)).toBe(false);
      expect(await records()).toBe(0);
      // Other projects' uploads stay.
      expect(storedFiles().length).toBeGreaterThan(0);
    });
  });
});

import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadsServiceRef, type MarkdownUpload } from '../contracts.js';
import { uploadsPlugin } from '../plugin.js';

/**
 * Group uploads: GitLab has no group `POST`, so files reach a group through the uploads
 * service (a group feature's attachment); the routes list, send and remove them.
 */
describe('group uploads', () => {
  let app: TestApp;
  let base: string;
  let kept: MarkdownUpload;

  const keep = async (name: string, text: string) => {
    const path = join(app.kernel.files.root, '..', `${name}.incoming`);
    await writeFile(path, text);
    return app.kernel.resolve(uploadsServiceRef).create({ kind: 'group', id: app.group.id }, { path, filename: name }, app.users.developer.id);
  };

  beforeAll(async () => {
    app = await createTestApp({ plugins: [uploadsPlugin] });
    base = `/api/v4/groups/${app.group.id}/uploads`;
    kept = await keep('diagram.png', 'png bytes');
    await keep('agenda.md', '# Agenda');
  });
  afterAll(() => app.close());

  it('keeps a file through the uploads service, with the group form of full_path', () => {
    const secret = kept.url.split('/')[2];
    expect(kept).toEqual({
      id: expect.any(Number),
      alt: 'diagram',
      url: `/uploads/${secret}/diagram.png`,
      fullPath: `/-/group/${app.group.id}/uploads/${secret}/diagram.png`,
      markdown: `![diagram](/uploads/${secret}/diagram.png)`,
      size: 9,
    });
  });

  it('has no POST route', async () => {
    const body = new FormData();
    body.append('file', new Blob(['x']), 'x.txt');
    expect(await app.post(base, body, { token: 'owner' })).toMatchObject({ status: 404, body: { error: '404 Not Found' } });
  });

  it('lists uploads newest first for Maintainers and Owners', async () => {
    for (const token of ['maintainer', 'owner', 'admin']) {
      const res = await app.get(base, { token });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total')).toBe('2');
      expect(res.body.map((upload: { filename: string }) => upload.filename)).toEqual(['agenda.md', 'diagram.png']);
      expect(res.body[1]).toEqual({
        id: kept.id,
        size: 9,
        filename: 'diagram.png',
        created_at: expect.any(String),
        uploaded_by: { id: app.users.developer.id, name: 'Developer User', username: 'developer' },
      });
    }
  });

  it('refuses lists, downloads by id and deletes below Maintainer (403), and hides the private group from strangers (404)', async () => {
    expect(await app.get(base, { token: 'developer' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await app.get(`${base}/${kept.id}`, { token: 'developer' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await app.delete(`${base}/${kept.id}`, { token: 'developer' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await app.get(base, { token: 'nonMember' })).toMatchObject({ status: 404, body: { message: '404 Group Not Found' } });
    expect(await app.get(base, { token: null })).toMatchObject({ status: 404, body: { message: '404 Group Not Found' } });
  });

  it('sends a file by id to Maintainers and by secret to members, as attachments', async () => {
    const byId = await app.get(`${base}/${kept.id}`, { token: 'maintainer' });
    expect(byId).toMatchObject({ status: 200, text: 'png bytes' });
    expect(byId.headers.get('content-disposition')).toBe(`attachment; filename="diagram.png"; filename*=UTF-8''diagram.png`);
    const bySecret = await app.get(`${base}${kept.url.slice('/uploads'.length)}`, { token: 'guest' });
    expect(bySecret).toMatchObject({ status: 200, text: 'png bytes' });
    expect(await app.get(`${base}${kept.url.slice('/uploads'.length)}`, { token: 'nonMember' })).toMatchObject({
      status: 404,
      body: { message: '404 Group Not Found' },
    });
    expect(await app.get(`${base}/999999`, { token: 'maintainer' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
  });

  it('serves a group file on its web path to members, inline when it is an image', async () => {
    const res = await app.get(kept.fullPath, { query: { private_token: app.tokens.guest } });
    expect(res).toMatchObject({ status: 200, text: 'png bytes' });
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="diagram.png"; filename*=UTF-8''diagram.png`);
    expect(await app.get(kept.fullPath, { token: null })).toMatchObject({ status: 404, body: { message: '404 Group Not Found' } });
  });

  it('removes uploads by secret and by id', async () => {
    const extra = await keep('extra.txt', 'x');
    expect((await app.delete(`${base}${extra.url.slice('/uploads'.length)}`, { token: 'maintainer' })).status).toBe(204);
    expect((await app.delete(`${base}/${kept.id}`, { token: 'owner' })).status).toBe(204);
    expect((await app.get(base, { token: 'owner' })).body.map((upload: { filename: string }) => upload.filename)).toEqual(['agenda.md']);
  });

  it("removes a group's uploads with the group", async () => {
    const folder = app.kernel.files.path(`uploads/group/${app.group.id}`);
    expect((await app.delete(`/api/v4/groups/${app.group.id}`, { token: 'owner' })).status).toBe(202);
    expect(existsSync(folder)).toBe(false);
  });
});

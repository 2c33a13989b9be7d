import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadsPlugin } from '../plugin.js';

/** The paths a Markdown link and `full_path` point at, opened as a browser would. */
describe('uploads on the web paths', () => {
  let app: TestApp;
  let image: { url: string; full_path: string };
  let notes: { url: string; full_path: string };
  let publicImage: { url: string; full_path: string };

  const form = (name: string, text: string) => {
    const body = new FormData();
    body.append('file', new Blob([text]), name);
    return body;
  };

  beforeAll(async () => {
    app = await createTestApp({ plugins: [uploadsPlugin] });
    const uploads = `/api/v4/projects/${app.project.id}/uploads`;
    image = (await app.post(uploads, form('screen shot.png', 'png bytes'), { token: 'guest' })).body;
    notes = (await app.post(uploads, form('notes.html', '<script>alert(1)</script>'), { token: 'guest' })).body;
    const group = await app.post('/api/v4/groups', { name: 'Open', path: 'open', visibility: 'public' }, { token: 'admin' });
    const project = await app.post('/api/v4/projects', { name: 'Site', path: 'site', namespace_id: group.body.id, visibility: 'public' }, { token: 'admin' });
    publicImage = (await app.post(`/api/v4/projects/${project.body.id}/uploads`, form('logo.gif', 'gif bytes'), { token: 'admin' })).body;
  });
  afterAll(() => app.close());

  it('serves a private project image by full_path inline to members, with a token in the query or a header', async () => {
    expect(image.full_path).toMatch(new RegExp(`^/-/project/${app.project.id}/uploads/[0-9a-f]{32}/screen_shot\\.png$`));
    const byQuery = await app.get(image.full_path, { query: { private_token: app.tokens.guest } });
    expect(byQuery).toMatchObject({ status: 200, text: 'png bytes' });
    expect(byQuery.headers.get('content-type')).toBe('image/png');
    expect(byQuery.headers.get('content-disposition')).toBe(`inline; filename="screen_shot.png"; filename*=UTF-8''screen_shot.png`);
    expect(await app.get(image.full_path, { token: 'reporter' })).toMatchObject({ status: 200, text: 'png bytes' });
  });

  it("serves the same file under the project's full path, as its relative Markdown link resolves there", async () => {
    const res = await app.get(`/test-group/test-project${image.url}`, { token: 'guest' });
    expect(res).toMatchObject({ status: 200, text: 'png bytes' });
    expect(await app.get(`/TEST-GROUP/Test-Project${image.url}`, { token: 'guest' })).toMatchObject({ status: 200 });
  });

  it('hides a private project from anonymous callers and strangers', async () => {
    expect(await app.get(image.full_path, { token: null })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await app.get(image.full_path, { token: 'nonMember' })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await app.get(`/test-group/test-project${image.url}`, { token: null })).toMatchObject({ status: 404 });
  });

  it('sends files that are not images, video or audio as attachments', async () => {
    const res = await app.get(notes.full_path, { token: 'guest' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="notes.html"; filename*=UTF-8''notes.html`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves a public project upload to anyone, and answers HEAD without a body', async () => {
    expect(await app.get(publicImage.full_path, { token: null })).toMatchObject({ status: 200, text: 'gif bytes' });
    expect(await app.get(`/open/site${publicImage.url}`, { token: null })).toMatchObject({ status: 200, text: 'gif bytes' });
    const head = await app.request('HEAD', publicImage.full_path, { token: null });
    expect(head).toMatchObject({ status: 200, text: '' });
    expect(head.headers.get('content-length')).toBe('9');
  });

  it('answers 404 for a wrong secret, a wrong name, or a file of another project', async () => {
    const [secret, name] = image.full_path.split('/').slice(-2);
    expect(secret).toMatch(/^[0-9a-f]{32}$/);
    expect(await app.get(`/-/project/${app.project.id}/uploads/${'f'.repeat(32)}/${name}`, { token: 'guest' })).toMatchObject({
      status: 404,
      body: { message: '404 Not Found' },
    });
    expect(await app.get(`/-/project/${app.project.id}/uploads/${secret}/other.png`, { token: 'guest' })).toMatchObject({ status: 404 });
    expect(await app.get(`/open/site${image.url}`, { token: 'admin' })).toMatchObject({ status: 404, body: { message: '404 Not Found' } });
    expect(await app.get(`/no/such/project${image.url}`, { token: 'admin' })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
  });
});

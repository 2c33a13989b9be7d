import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, failureOf, type Api } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';
import { python } from './support/python-gitlab.js';

/**
 * The instance appearance through python-gitlab and plain multipart requests (@gitbeaker/rest's
 * appearance resource calls a misspelt path, which GitLab does not serve either): text fields,
 * a logo upload served back, and the admin-only rule.
 */
describe('appearance through python-gitlab and the API', () => {
  let server: ListeningServer;
  let admin: Api;

  beforeAll(async () => {
    server = await startListeningServer();
    admin = clientFor(server, server.rootToken);
  });
  afterAll(() => server?.close());

  const put = (body: FormData | Record<string, string>, token = server.rootToken) =>
    fetch(`${server.url}/api/v4/application/appearance`, {
      method: 'PUT',
      headers: body instanceof FormData ? { 'PRIVATE-TOKEN': token } : { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' },
      body: body instanceof FormData ? body : JSON.stringify(body),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));

  it('shows the defaults, uploads a logo as multipart and serves it back', async () => {
    const shown = await python(server, server.rootToken, 'a = gl.appearance.get()\nprint(json.dumps(a.asdict()))');
    expect(shown).toMatchObject({ title: '', logo: null, message_background_color: '#E75E40', message_font_color: '#FFFFFF' });
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(32, 1)]);
    const form = new FormData();
    form.append('logo', new Blob([png]), 'logo.png');
    form.append('pwa_icon', new Blob([png]), 'icon.png');
    const updated = await put(form);
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ logo: '/uploads/-/system/appearance/logo/1/logo.png', pwa_icon: '/uploads/-/system/appearance/pwa_icon/1/icon.png' });
    const served = await fetch(`${server.url}${updated.body.logo}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(png);
  });

  it('changes text fields through python-gitlab and refuses a bad colour', async () => {
    const updated = await python(
      server,
      server.rootToken,
      'a = gl.appearance.get()\na.title = "Forge"\na.header_message = "Maintenance tonight"\na.save()\nprint(json.dumps(gl.appearance.get().asdict()))',
    );
    expect(updated).toMatchObject({ title: 'Forge', header_message: 'Maintenance tonight', logo: '/uploads/-/system/appearance/logo/1/logo.png' });
    expect(await put({ message_font_color: 'No Color' })).toEqual({ status: 400, body: { message: { message_font_color: ['must be a valid color code'] } } });
  });

  it('is for administrators only', async () => {
    const user = await admin.Users.create({
      username: 'plain',
      name: 'Plain',
      email: 'plain@example.com',
      password: 'plain-Secret-123',
      skipConfirmation: true,
    });
    const { token } = await admin.Users.createPersonalAccessToken(user.id, 'plain-api', ['api']);
    expect(await failureOf(clientFor(server, token!).ApplicationSettings.show())).toEqual({ status: 403, description: '403 Forbidden' });
    expect(await put({ title: 'Mine' }, token!)).toEqual({ status: 403, body: { message: '403 Forbidden' } });
  });
});

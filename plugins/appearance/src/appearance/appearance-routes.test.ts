import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { appearancePlugin } from '../plugin.js';

const PATH = '/api/v4/application/appearance';

const DEFAULTS = {
  title: '',
  description: '',
  pwa_name: '',
  pwa_short_name: '',
  pwa_description: '',
  pwa_icon: null,
  logo: null,
  header_logo: null,
  favicon: null,
  member_guidelines: '',
  new_project_guidelines: '',
  profile_image_guidelines: '',
  header_message: '',
  footer_message: '',
  message_background_color: '#E75E40',
  message_font_color: '#FFFFFF',
  email_header_and_footer_enabled: false,
};

function form(fields: Record<string, string | { name: string; bytes: string | Uint8Array }>) {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'string') body.append(key, value);
    else body.append(key, new Blob([value.bytes]), value.name);
  }
  return body;
}

describe('application appearance', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp({ plugins: [appearancePlugin] });
  });
  afterAll(() => app?.close());

  it('answers the defaults before anything is saved, to administrators only', async () => {
    expect(await app.get(PATH, { token: 'admin' })).toMatchObject({ status: 200, body: DEFAULTS });
    expect((await app.get(PATH, { token: 'owner' })).status).toBe(403);
    expect((await app.put(PATH, { title: 'x' }, { token: 'owner' })).status).toBe(403);
    expect((await app.get(PATH)).status).toBe(401);
  });

  it('updates text fields and keeps the ones not sent', async () => {
    const res = await app.put(
      PATH,
      { title: 'Forge', header_message: 'Hello', message_font_color: '#000', email_header_and_footer_enabled: true },
      { token: 'admin' },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...DEFAULTS, title: 'Forge', header_message: 'Hello', message_font_color: '#000', email_header_and_footer_enabled: true });
    const again = await app.put(PATH, { description: 'About' }, { token: 'admin' });
    expect(again.body).toMatchObject({ title: 'Forge', description: 'About', header_message: 'Hello' });
    expect((await app.get(PATH, { token: 'admin' })).body).toEqual(again.body);
  });

  it('refuses bad colours, long texts and bad images, saving nothing', async () => {
    const res = await app.put(
      PATH,
      { message_background_color: 'No Color', message_font_color: '#1', pwa_name: 'n'.repeat(256), title: 'Changed' },
      { token: 'admin' },
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: {
        pwa_name: ['is too long (maximum is 255 characters)'],
        message_background_color: ['must be a valid color code'],
        message_font_color: ['must be a valid color code'],
      },
    });
    const favicon = await app.put(PATH, form({ favicon: { name: 'icon.gif', bytes: 'GIF89a' } }), { token: 'admin' });
    expect([favicon.status, favicon.body]).toEqual([400, { message: { favicon: ['You are not allowed to upload "gif" files, allowed types: png, ico'] } }]);
    const big = await app.put(PATH, form({ logo: { name: 'logo.png', bytes: new Uint8Array(1024 * 1024 + 1) } }), { token: 'admin' });
    expect([big.status, big.body]).toEqual([400, { message: { logo: ['is too big (should be at most 1 MiB)'] } }]);
    const text = await app.put(PATH, form({ header_logo: { name: 'notes.txt', bytes: 'x' } }), { token: 'admin' });
    expect(text.body).toEqual({
      message: { header_logo: ['You are not allowed to upload "txt" files, allowed types: png, jpg, jpeg, gif, bmp, tiff, ico, webp'] },
    });
    expect((await app.get(PATH, { token: 'admin' })).body.title).toBe('Forge');
  });

  it('stores uploaded images and serves them at their paths', async () => {
    const res = await app.put(
      PATH,
      form({ logo: { name: 'my logo.png', bytes: 'logo bytes' }, pwa_icon: { name: 'icon.png', bytes: 'icon bytes' }, title: 'With logo' }),
      { token: 'admin' },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      title: 'With logo',
      logo: '/uploads/-/system/appearance/logo/1/my_logo.png',
      pwa_icon: '/uploads/-/system/appearance/pwa_icon/1/icon.png',
      favicon: null,
    });
    expect(await app.get(res.body.logo)).toMatchObject({ status: 200, text: 'logo bytes' });
    expect(await app.get(res.body.pwa_icon)).toMatchObject({ status: 200, text: 'icon bytes' });

    const replaced = await app.put(PATH, form({ logo: { name: 'new.png', bytes: 'new logo' } }), { token: 'admin' });
    expect(replaced.body.logo).toBe('/uploads/-/system/appearance/logo/1/new.png');
    expect((await app.get(res.body.logo)).status).toBe(404);
    expect(await app.get(replaced.body.logo)).toMatchObject({ status: 200, text: 'new logo' });
    expect((await app.get('/uploads/-/system/appearance/secrets/1/new.png')).status).toBe(404);
  });
});

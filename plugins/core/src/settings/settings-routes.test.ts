import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definePlugin, f } from '@forgekit/kernel';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { coreSettingsRef } from '../contracts.js';

/** A plugin that adds its own instance setting, as other plugins do. */
const extraSettingPlugin = definePlugin({
  id: 'extra-setting',
  compatibility: '^0.1.0',
  requires: [coreSettingsRef],
  register(ctx) {
    const settings = ctx.resolve(coreSettingsRef);
    settings.define('extra-setting', 'extra_feature_enabled', f.boolean(), false);
    // An old setting and its newer form, each kept in step with the other.
    settings.define('extra-setting', 'extra_level', f.integer(), 1, { derive: (level) => ({ extra_level_name: level > 1 ? 'high' : 'low' }) });
    settings.define('extra-setting', 'extra_level_name', f.values(['low', 'high']), 'low', { derive: (name) => ({ extra_level: name === 'high' ? 2 : 1 }) });
  },
});

describe('application settings', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp({ plugins: [extraSettingPlugin] });
  });
  afterAll(() => app?.close());

  it('shows admins every setting with its default', async () => {
    const res = await app.get('/api/v4/application/settings', { token: 'admin' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)[0]).toBe('id');
    expect(res.body).toMatchObject({
      id: 1,
      default_project_visibility: 'private',
      default_group_visibility: 'private',
      signup_enabled: false,
      default_projects_limit: 100000,
      extra_feature_enabled: false,
    });
  });

  it('keeps a derived setting in step, unless the same request sets it too', async () => {
    expect((await app.put('/api/v4/application/settings', { extra_level: 3 }, { token: 'admin' })).body).toMatchObject({
      extra_level: 3,
      extra_level_name: 'high',
    });
    expect((await app.put('/api/v4/application/settings', { extra_level_name: 'low' }, { token: 'admin' })).body).toMatchObject({
      extra_level: 1,
      extra_level_name: 'low',
    });
    expect((await app.put('/api/v4/application/settings', { extra_level: 5, extra_level_name: 'low' }, { token: 'admin' })).body).toMatchObject({
      extra_level: 5,
      extra_level_name: 'low',
    });
    expect((await app.get('/api/v4/application/settings', { token: 'admin' })).body).toMatchObject({ extra_level: 5, extra_level_name: 'low' });
  });

  it('updates settings, keeps them, and ignores unknown keys', async () => {
    const res = await app.put(
      '/api/v4/application/settings',
      { signup_enabled: 'true', max_attachment_size: '250', extra_feature_enabled: true, no_such_setting: 1 },
      { token: 'admin' },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ signup_enabled: true, max_attachment_size: 250, extra_feature_enabled: true });
    expect(res.body).not.toHaveProperty('no_such_setting');
    const again = await app.get('/api/v4/application/settings', { token: 'admin' });
    expect(again.body).toMatchObject({ signup_enabled: true, max_attachment_size: 250, extra_feature_enabled: true });
    expect(await app.kernel.resolve(coreSettingsRef).get('extra_feature_enabled')).toBe(true);
  });

  it('answers bad values with the framework error', async () => {
    const bool = await app.put('/api/v4/application/settings', { signup_enabled: 'perhaps' }, { token: 'admin' });
    expect(bool.status).toBe(400);
    expect(bool.body).toEqual({ error: 'signup_enabled is invalid' });
    const choice = await app.put('/api/v4/application/settings', { default_project_visibility: 'secret', max_import_size: 'big' }, { token: 'admin' });
    expect(choice.status).toBe(400);
    expect(choice.body).toEqual({ error: 'default_project_visibility does not have a valid value, max_import_size is invalid' });
  });

  it('is for admins only', async () => {
    for (const request of [
      app.get('/api/v4/application/settings', { token: 'owner' }),
      app.put('/api/v4/application/settings', { signup_enabled: true }, { token: 'owner' }),
    ]) {
      const res = await request;
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
    }
    const anonymous = await app.get('/api/v4/application/settings');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: '401 Unauthorized' });
  });

  it('refuses a second definition of the same key, naming both plugins', async () => {
    const clash = definePlugin({
      id: 'clashing-setting',
      compatibility: '^0.1.0',
      requires: [coreSettingsRef],
      register(ctx) {
        ctx.resolve(coreSettingsRef).define('clashing-setting', 'signup_enabled', f.boolean(), true);
      },
    });
    await expect(createTestApp({ plugins: [clash], seed: false })).rejects.toThrow(
      "Plugin 'clashing-setting' defines application setting 'signup_enabled', which 'core' already defines",
    );
  });
});

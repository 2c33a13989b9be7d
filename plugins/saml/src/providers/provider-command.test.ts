import { createCommandContext, type CommandContext, type PluginCommand } from '@forgekit/kernel';
import { principalOf } from '@forgekit/plugin-core/contracts';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samlPlugin } from '../plugin.js';

const FINGERPRINT = '0123456789abcdef0123456789abcdef01234567';

/** `forgekit saml-provider …` in-process, on both engines: the command's run with the context the CLI gives it. */
describe('the saml-provider command', () => {
  let app: TestApp;
  let ctx: CommandContext;
  const sub = (name: string) =>
    samlPlugin.commands!.find((command) => command.name === 'saml-provider')!.subcommands!.find((command) => command.name === name)!;
  const run = (name: string, values: Record<string, string>) =>
    (sub(name) as Required<Pick<PluginCommand, 'run'>>).run(ctx, { group: app.group.fullPath, ...values });

  beforeAll(async () => {
    app = await createTestApp({ plugins: [samlPlugin] });
    ctx = createCommandContext(app.kernel, samlPlugin, async () => principalOf(app.users.admin));
  });
  afterAll(() => app?.close());

  it('sets, shows and deletes the provider the API answers with', async () => {
    const created = await run('set', { 'sso-url': 'https://idp.example.com/sso', 'certificate-fingerprint': FINGERPRINT, 'default-membership-role': '20' });
    expect(created).toMatchObject({ group_id: app.group.id, enabled: true, default_membership_role: 20 });
    expect((await app.get(`/api/v4/groups/${app.group.id}/saml_provider`, { token: 'owner' })).body).toEqual(created);
    expect(await run('set', { enabled: 'false' })).toMatchObject({ enabled: false, default_membership_role: 20 });
    expect(await run('show', {})).toMatchObject({ enabled: false });
    expect(await run('delete', {})).toBe(`deleted the SAML provider of ${app.group.fullPath}`);
    expect((await app.get(`/api/v4/groups/${app.group.id}/saml_provider`, { token: 'owner' })).status).toBe(404);
  });

  it('refuses as PUT /groups/:id/saml_provider does', async () => {
    await expect(run('set', { 'default-membership-role': '50' })).rejects.toMatchObject({
      status: 400,
      body: { error: 'default_membership_role does not have a valid value' },
    });
    await expect(run('set', { 'sso-url': 'ftp://idp.example.com' })).rejects.toMatchObject({
      status: 400,
      body: { message: { sso_url: ['is blocked: Only allowed schemes are https'], certificate_fingerprint: ["can't be blank"] } },
    });
    await expect(run('show', {})).rejects.toMatchObject({ status: 404, body: { message: '404 SAML Provider Not Found' } });
    await expect(run('show', { group: 'no-such-group' })).rejects.toMatchObject({ status: 404, body: { message: '404 Group Not Found' } });
  });
});

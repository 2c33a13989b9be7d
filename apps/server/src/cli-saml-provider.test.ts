/**
 * `forgekit saml-provider`, the SAML plugin's command, run as production runs it: the built CLI
 * in a child process on the data dir a running server uses, its work read back through the API.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, isJsonLine, SERVER_CLI, startServerProcess, type ServerProcess } from './test-support/server-process.js';

const ROOT_TOKEN = 'fkpat-saml-cli-root-token-0123456789';
const FINGERPRINT = `${'AB:'.repeat(19)}CD`;

describe('forgekit saml-provider (the built command)', { timeout: 120_000 }, () => {
  let root: string;
  let dataDir: string;
  let server: ServerProcess;
  let url: string;
  const exec = promisify(execFile);

  const forgekit = async (...args: string[]) => {
    try {
      const { stdout, stderr } = await exec(process.execPath, [SERVER_CLI, ...args], {
        env: childEnv({ FORGEKIT_DATA_DIR: dataDir, FORGEKIT_LOG_LEVEL: 'silent' }),
      });
      return { status: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { status: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}/api/v4${path}`, {
      method,
      headers: { 'private-token': ROOT_TOKEN, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (res.status === 204 ? null : await res.json()) as any };
  };

  beforeAll(async () => {
    if (!existsSync(SERVER_CLI)) throw new Error(`${SERVER_CLI} is missing: run \`npm run build\` first`);
    root = await mkdtemp(join(tmpdir(), 'forgekit-saml-cli-'));
    dataDir = join(root, 'data');
    server = startServerProcess({ FORGEKIT_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', FORGEKIT_ROOT_TOKEN: ROOT_TOKEN });
    const line = await server.waitForLine((text) => isJsonLine(text) && JSON.parse(text).msg === 'listening');
    if (!line) throw new Error(`the server did not start: ${server.stderr()}`);
    url = JSON.parse(line).url;
    const group = await api('POST', '/groups', { name: 'SAML Co', path: 'saml-co' });
    expect(group.status).toBe(201);
    expect((await api('POST', '/groups', { name: 'Team', path: 'team', parent_id: group.body.id })).status).toBe(201);
  });
  afterAll(async () => {
    await server?.stop('SIGTERM');
    await rm(root, { recursive: true, force: true });
  });

  it('is listed in the help of the built command', async () => {
    const { status, stdout } = await forgekit('--help');
    expect(status).toBe(0);
    expect(stdout).toMatch(/\nCommands of the plugins:\n(?:.*\n)* {2}saml-provider +Show, set or delete a top-level group's SAML provider \(saml\)\n/);
  });

  it('sets, shows and deletes the provider the server answers with', async () => {
    const set = await forgekit(
      'saml-provider',
      'set',
      '--group',
      'saml-co',
      '--sso-url',
      'https://idp.example.com/sso',
      '--certificate-fingerprint',
      FINGERPRINT,
    );
    expect(set.status, set.stderr).toBe(0);
    expect(set.stderr).toMatch(/^forgekit: data dir /);
    const created = JSON.parse(set.stdout);
    expect(created).toMatchObject({ enabled: true, sso_url: 'https://idp.example.com/sso', certificate_fingerprint: FINGERPRINT, default_membership_role: 10 });
    expect(await api('GET', '/groups/saml-co/saml_provider')).toEqual({ status: 200, body: created });

    const changed = await forgekit('saml-provider', 'set', '--group', String(created.group_id), '--default-membership-role', '30', '--enabled', 'false');
    expect(changed.status, changed.stderr).toBe(0);
    const read = await api('GET', '/groups/saml-co/saml_provider');
    expect(read.body).toMatchObject({ id: created.id, enabled: false, default_membership_role: 30, sso_url: 'https://idp.example.com/sso' });
    expect(JSON.parse(changed.stdout)).toEqual(read.body);
    expect(JSON.parse((await forgekit('saml-provider', 'show', '--group', 'saml-co')).stdout)).toEqual(read.body);

    const deleted = await forgekit('saml-provider', 'delete', '--group', 'saml-co');
    expect(deleted).toMatchObject({ status: 0, stdout: 'deleted the SAML provider of saml-co\n' });
    expect(await api('GET', '/groups/saml-co/saml_provider')).toEqual({ status: 404, body: { message: '404 SAML Provider Not Found' } });
    expect(await forgekit('saml-provider', 'show', '--group', 'saml-co')).toMatchObject({
      status: 1,
      stdout: '',
      stderr: expect.stringMatching(/\n404 SAML Provider Not Found\n$/),
    });
  });

  it("refuses what the REST extension refuses, in the service's words, and writes nothing", async () => {
    const refusals: [string[], string][] = [
      [
        ['--sso-url', 'http://idp.example.com', '--certificate-fingerprint', 'nothex'],
        'sso_url is blocked: Only allowed schemes are https\ncertificate_fingerprint must be 40 or 64 hex characters, with or without colons',
      ],
      [['--sso-url', 'https://idp.example.com'], "certificate_fingerprint can't be blank"],
      [['--default-membership-role', '50'], 'default_membership_role does not have a valid value'],
      [['--enabled', 'maybe'], 'enabled is invalid'],
    ];
    // None of these writes: they run side by side.
    const [subgroup, unknown, missing, ...answers] = await Promise.all([
      forgekit('saml-provider', 'set', '--group', 'saml-co/team', '--sso-url', 'https://idp.example.com', '--certificate-fingerprint', FINGERPRINT),
      forgekit('saml-provider', 'show', '--group', 'nowhere'),
      forgekit('saml-provider', 'show'),
      ...refusals.map(([options]) => forgekit('saml-provider', 'set', '--group', 'saml-co', ...options)),
    ]);
    for (const [index, [options, problem]] of refusals.entries()) {
      const { status, stdout, stderr } = answers[index]!;
      expect({ status, stdout }, options.join(' ')).toEqual({ status: 1, stdout: '' });
      expect(stderr, options.join(' ')).toMatch(new RegExp(`\\n${problem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n$`));
    }
    expect(subgroup).toMatchObject({ status: 1, stderr: expect.stringMatching(/\n400 Bad request - SAML can only be configured for a top-level group\n$/) });
    expect(unknown).toMatchObject({ status: 1, stderr: expect.stringMatching(/\n404 Group Not Found\n$/) });
    expect(missing).toMatchObject({ status: 2, stderr: "--group is required. Run 'forgekit saml-provider show --help' for usage.\n" });
    expect(await api('GET', '/groups/saml-co/saml_provider')).toMatchObject({ status: 404 });
  });
});

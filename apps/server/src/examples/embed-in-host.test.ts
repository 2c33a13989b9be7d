import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createKernel, type Kernel } from '@forgekit/kernel';
import { ciVariablesPlugin } from '@forgekit/plugin-ci-variables';
import { corePlugin } from '@forgekit/plugin-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createForge, h3Host, nodeHost } from './embed-in-host.js';

const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
const example = readFileSync(new URL('./embed-in-host.ts', import.meta.url), 'utf8');

/** The README's embedding example: core and ci-variables (with plan-limits) under /forge, in a node:http and an h3 host. */
describe('the README embedding example', () => {
  let kernel: Kernel;
  let dataDir: string;
  const hosts: Record<'node' | 'h3', { server: Server; url: string }> = {} as never;
  const rootToken = 'fkpat-embedding-example-root-token';
  const env = { FORGEKIT_DATA_DIR: '', FORGEKIT_ROOT_TOKEN: rootToken, FORGEKIT_LOG_LEVEL: 'silent' };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'forgekit-embed-'));
    Object.assign(process.env, { ...env, FORGEKIT_DATA_DIR: dataDir });
    kernel = await createForge();
    for (const [name, host] of [
      ['node', nodeHost],
      ['h3', h3Host],
    ] as const) {
      const server = host(kernel).listen(0, '127.0.0.1');
      await once(server, 'listening');
      hosts[name] = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
    }
  });

  afterAll(async () => {
    for (const { server } of Object.values(hosts)) server.close();
    await kernel?.stop();
    for (const name of Object.keys(env)) delete process.env[name];
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is quoted in the README as it is', () => {
    expect(readme).toContain(example.trim());
  });

  it.each(['node', 'h3'] as const)('serves the API under /forge in the %s host, and leaves the rest to the host', async (name) => {
    const { url } = hosts[name];
    const headers = { 'PRIVATE-TOKEN': rootToken, 'Content-Type': 'application/json' };
    const user = await fetch(`${url}/forge/api/v4/user`, { headers });
    expect(user.status).toBe(200);
    expect(await user.json()).toMatchObject({ username: 'root', is_admin: true, web_url: `${url}/forge/root` });
    expect(await (await fetch(`${url}/elsewhere`)).text()).toBe('the host app');
    const variable = await fetch(`${url}/forge/api/v4/admin/ci/variables`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ key: `FROM_${name.toUpperCase()}`, value: 'v' }),
    });
    expect(variable.status).toBe(201);
    expect(await variable.json()).toMatchObject({ key: `FROM_${name.toUpperCase()}`, value: 'v' });
  });

  it('fails to boot ci-variables without plan-limits, naming the package to install', async () => {
    await expect(createKernel({ plugins: [corePlugin, ciVariablesPlugin], config: { dataDir, databaseUrl: ':memory:', logLevel: 'silent' } })).rejects.toThrow(
      "Plugin 'ci-variables' requires service 'plan-limits.limits', which no plugin provides: add the plugin from the npm package @forgekit/plugin-plan-limits",
    );
  });
});

import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost } from './embed-in-host.js';

const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
const example = readFileSync(new URL('./embed-in-host.ts', import.meta.url), 'utf8');

describe('the README embedding example', () => {
  let host: Awaited<ReturnType<typeof startHost>>;
  let dataDir: string;
  const rootToken = 'fkpat-embedding-example-root-token';

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'forgekit-embed-'));
    Object.assign(process.env, { FORGEKIT_DATA_DIR: dataDir, FORGEKIT_ROOT_TOKEN: rootToken, FORGEKIT_LOG_LEVEL: 'silent' });
    host = await startHost(0);
    if (!host.server.listening) await once(host.server, 'listening');
  });

  afterAll(async () => {
    host.server.close();
    await host.kernel.stop();
    for (const name of ['FORGEKIT_DATA_DIR', 'FORGEKIT_ROOT_TOKEN', 'FORGEKIT_LOG_LEVEL']) delete process.env[name];
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is quoted in the README as it is', () => {
    expect(readme).toContain(example.trim());
  });

  it('serves the API with the root token from the environment', async () => {
    const { port } = host.server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': rootToken } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ username: 'root', is_admin: true });
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kernelServices, generateSecretsKey, type Secrets } from '@forgekit/kernel';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { createTestDatabase } from '@forgekit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgent, startApp } from '../test-support/agent-fixtures.js';
import { legacyPlain, legacySealed } from '../test-support/legacy-values.js';
import { resealLegacyValues } from './reseal-legacy-values.js';
import { createSecretBox } from './secret-box.js';

const LEGACY_KEY = 'an-encryption-key-of-earlier-versions';
const privateKey = Buffer.from('ed25519 seed of thirty-two bytes');
const clientKey = Buffer.from('-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----\n');

/** A URL configuration row as an earlier version stored it. */
async function insertLegacyRow(app: TestApp, agentName: string, values: { private_key?: string; client_key?: string }): Promise<number> {
  const agentId = await registerAgent(app, agentName);
  const now = new Date();
  const [row] = await app.kernel.database.legacy
    .knex('cluster_agent_url_configurations')
    .insert({ agent_id: agentId, project_id: app.project.id, url: 'grpcs://agent.example.com', created_at: now, updated_at: now, ...values })
    .returning('id');
  return row.id;
}

const readRow = (app: TestApp, id: number) => app.kernel.database.legacy.knex('cluster_agent_url_configurations').where('id', id).first();

describe('re-sealing keys written by earlier versions', () => {
  let app: TestApp;
  let secrets: Secrets;
  beforeAll(async () => {
    app = await startApp();
    secrets = app.kernel.resolve(kernelServices.secrets);
  });
  afterAll(() => app?.close());

  it('re-seals base64-only values and values under the deprecated key with the secrets key, once', async () => {
    const id = await insertLegacyRow(app, 'legacy-both', { private_key: legacyPlain(privateKey), client_key: legacySealed(clientKey, LEGACY_KEY) });
    const box = createSecretBox(secrets, LEGACY_KEY);
    expect(await resealLegacyValues(app.kernel.database, box)).toEqual({ resealed: 2, unopened: 0 });
    const row = await readRow(app, id);
    for (const column of ['private_key', 'client_key']) expect(secrets.isSealed(row[column])).toBe(true);
    expect(row.private_key).not.toContain(privateKey.toString('base64'));
    expect(secrets.open(row.private_key)).toEqual(privateKey);
    expect(secrets.open(row.client_key)).toEqual(clientKey);
    expect(await resealLegacyValues(app.kernel.database, box)).toEqual({ resealed: 0, unopened: 0 });
  });

  it('leaves values under the deprecated key alone while that key is not given', async () => {
    const sealed = legacySealed(privateKey, LEGACY_KEY);
    const id = await insertLegacyRow(app, 'legacy-keyless', { private_key: sealed });
    expect(await resealLegacyValues(app.kernel.database, createSecretBox(secrets, undefined))).toEqual({ resealed: 0, unopened: 1 });
    expect((await readRow(app, id)).private_key).toBe(sealed);
    expect(await resealLegacyValues(app.kernel.database, createSecretBox(secrets, LEGACY_KEY))).toEqual({ resealed: 1, unopened: 0 });
  });
});

describe('a restart after an upgrade', () => {
  let dir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const apps: TestApp[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'forgekit-reseal-'));
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await database?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('re-seals what an earlier version stored, so the old rows open with the secrets key', async () => {
    const databaseUrl = database.url === ':memory:' ? join(dir, 'forgekit.sqlite') : database.url;
    const config = { databaseUrl, secretsKey: generateSecretsKey() };
    const first = await startApp({ config });
    apps.push(first);
    const id = await insertLegacyRow(first, 'upgraded', { private_key: legacyPlain(privateKey) });
    await first.kernel.stop();

    const second = await startApp({ config, seed: false });
    apps.push(second);
    const row = await readRow(second, id);
    const secrets = second.kernel.resolve(kernelServices.secrets);
    expect(secrets.isSealed(row.private_key)).toBe(true);
    expect(secrets.open(row.private_key)).toEqual(privateKey);
  });
});

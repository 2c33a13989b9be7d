import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kernelServices, generateSecretsKey, type Secrets } from '@forgekit/kernel';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { createTestDatabase } from '@forgekit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterAgentUrlConfigurationEntity } from '../entities/cluster-agent-url-configuration.js';
import { registerAgent, startApp } from '../testing/agent-fixtures.js';
import { legacyPlain, legacySealed } from '../testing/legacy-values.js';
import { resealLegacyValues } from './reseal-legacy-values.js';
import { createSecretBox } from './secret-box.js';

const LEGACY_KEY = 'an-encryption-key-of-earlier-versions';
const privateKey = Buffer.from('ed25519 seed of thirty-two bytes');
const clientKey = Buffer.from('-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----\n');

/** A URL configuration row as an earlier version stored it. */
async function insertLegacyRow(app: TestApp, agentName: string, values: { privateKey?: string; clientKey?: string }): Promise<number> {
  const agentId = await registerAgent(app, agentName);
  const now = new Date();
  const row = { agentId, projectId: app.project.id, url: 'grpcs://agent.example.com', createdAt: now, updatedAt: now, ...values };
  return app.kernel.database.insert(ClusterAgentUrlConfigurationEntity, row);
}

const readRow = async (app: TestApp, id: number) =>
  (await app.kernel.database.row(app.kernel.database.from(ClusterAgentUrlConfigurationEntity).where('id', id)))!;

describe('re-sealing keys written by earlier versions', () => {
  let app: TestApp;
  let secrets: Secrets;
  beforeAll(async () => {
    app = await startApp();
    secrets = app.kernel.resolve(kernelServices.secrets);
  });
  afterAll(() => app?.close());

  it('re-seals base64-only values and values under the deprecated key with the secrets key, once', async () => {
    const id = await insertLegacyRow(app, 'legacy-both', { privateKey: legacyPlain(privateKey), clientKey: legacySealed(clientKey, LEGACY_KEY) });
    const box = createSecretBox(secrets, LEGACY_KEY);
    expect(await resealLegacyValues(app.kernel.database, box)).toEqual({ resealed: 2, unopened: 0 });
    const row = await readRow(app, id);
    for (const value of [row.privateKey, row.clientKey]) expect(secrets.isSealed(value!)).toBe(true);
    expect(row.privateKey).not.toContain(privateKey.toString('base64'));
    expect(secrets.open(row.privateKey!)).toEqual(privateKey);
    expect(secrets.open(row.clientKey!)).toEqual(clientKey);
    expect(await resealLegacyValues(app.kernel.database, box)).toEqual({ resealed: 0, unopened: 0 });
  });

  it('leaves values under the deprecated key alone while that key is not given', async () => {
    const sealed = legacySealed(privateKey, LEGACY_KEY);
    const id = await insertLegacyRow(app, 'legacy-keyless', { privateKey: sealed });
    expect(await resealLegacyValues(app.kernel.database, createSecretBox(secrets, undefined))).toEqual({ resealed: 0, unopened: 1 });
    expect((await readRow(app, id)).privateKey).toBe(sealed);
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
    const id = await insertLegacyRow(first, 'upgraded', { privateKey: legacyPlain(privateKey) });
    await first.kernel.stop();

    const second = await startApp({ config, seed: false });
    apps.push(second);
    const row = await readRow(second, id);
    const secrets = second.kernel.resolve(kernelServices.secrets);
    expect(secrets.isSealed(row.privateKey!)).toBe(true);
    expect(secrets.open(row.privateKey!)).toEqual(privateKey);
  });
});

import { Writable } from 'node:stream';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Kernel } from '../kernel.js';
import { kernelServices } from '../plugin/kernel-services.js';
import { BootError } from '../plugin/boot-order.js';
import { createSecrets, generateSecretsKey } from './secrets.js';
import { GENERATED_KEY_FILE, KEY_CHECK_TABLE } from './secrets-key.js';
import { internalsOf } from '../db/internals.js';

const plaintext = 'private key material';

describe('secrets', () => {
  const secrets = createSecrets(generateSecretsKey());

  it('seals to neither the plaintext nor its base64, with a fresh IV each time, and opens again', () => {
    const sealed = secrets.seal(plaintext);
    expect(sealed).toMatch(/^sealed-v1:[0-9a-f]{12}:/);
    expect(sealed).not.toContain(plaintext);
    expect(sealed).not.toContain(Buffer.from(plaintext).toString('base64'));
    expect(secrets.seal(plaintext)).not.toBe(sealed);
    expect(secrets.open(sealed).toString()).toBe(plaintext);
    expect(secrets.open(secrets.seal(Buffer.from([0, 255, 1]))).equals(Buffer.from([0, 255, 1]))).toBe(true);
    expect(secrets.isSealed(sealed)).toBe(true);
    expect(secrets.isSealed(`plain:${Buffer.from(plaintext).toString('base64')}`)).toBe(false);
  });

  it('refuses values sealed under another key, altered values and other formats', () => {
    const sealed = secrets.seal(plaintext);
    expect(() => createSecrets(generateSecretsKey()).open(sealed)).toThrow('sealed under another secrets key');
    const parts = sealed.split(':');
    const body = Buffer.from(parts[4]!, 'base64');
    body[0]! ^= 1;
    expect(() => secrets.open([...parts.slice(0, 4), body.toString('base64')].join(':'))).toThrow('integrity check');
    expect(() => secrets.open([...parts.slice(0, 3), 'AAAA', parts[4]].join(':'))).toThrow('integrity check');
    expect(() => secrets.open(`plain:${Buffer.from(plaintext).toString('base64')}`)).toThrow('Not a sealed secret');
  });
});

const baseUrl = process.env.FORGEKIT_TEST_DATABASE_URL;

/** A fresh PostgreSQL database when the suite runs there; otherwise SQLite in the data dir. */
async function freshDatabase(): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  if (!baseUrl) return { url: undefined, drop: async () => undefined };
  const name = `forgekit_secrets_${process.pid}_${Date.now()}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

describe(`the secrets key at boot (${baseUrl ? 'PostgreSQL' : 'SQLite'})`, () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let dataDir: string;
  const dirs: string[] = [];
  const logLines: string[] = [];
  const capture = pino(
    { level: 'info' },
    new Writable({
      write: (chunk, _encoding, done) => {
        logLines.push(...String(chunk).trim().split('\n'));
        done();
      },
    }),
  );
  const boot = (dir: string, extra: { secretsKey?: string; secretsKeyFile?: string } = {}) =>
    createKernel({ plugins: [], config: { dataDir: dir, databaseUrl: database.url, ...extra }, logger: capture });
  const withKernel = async <T>(kernel: Kernel, fn: (kernel: Kernel) => T | Promise<T>): Promise<T> => {
    try {
      return await fn(kernel);
    } finally {
      await kernel.stop();
    }
  };
  const tempDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'forgekit-secrets-'));
    dirs.push(dir);
    return dir;
  };

  beforeAll(async () => {
    database = await freshDatabase();
    dataDir = await tempDir();
  });
  afterAll(async () => {
    await database?.drop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  let firstSealed: string;
  let generatedKey: string;

  it('generates a key file readable only by its owner at first start, says where in one log line, and never logs the key', async () => {
    firstSealed = await withKernel(await boot(dataDir), (kernel) => kernel.resolve(kernelServices.secrets).seal(plaintext));
    const keyFile = join(dataDir, GENERATED_KEY_FILE);
    if (process.platform !== 'win32') expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    generatedKey = readFileSync(keyFile, 'utf8').trim();
    expect(generatedKey.length).toBeGreaterThanOrEqual(32);
    expect(readdirSync(dataDir).filter((name) => name.startsWith(`${GENERATED_KEY_FILE}.`))).toEqual([]);
    const told = logLines.map((line) => JSON.parse(line)).filter((entry) => entry.keyFile);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ level: 30, keyFile });
    expect(logLines.join('\n')).not.toContain(generatedKey);
  });

  it('reuses the key file on the next start, so a second kernel on the same data dir opens what the first sealed', async () => {
    const before = logLines.length;
    const opened = await withKernel(await boot(dataDir), (kernel) => kernel.resolve(kernelServices.secrets).open(firstSealed).toString());
    expect(opened).toBe(plaintext);
    expect(readFileSync(join(dataDir, GENERATED_KEY_FILE), 'utf8').trim()).toBe(generatedKey);
    expect(logLines.slice(before).filter((line) => line.includes('keyFile'))).toEqual([]);
  });

  it('keeps a check of the key in the database, not the key', async () => {
    const rows = await withKernel(await boot(dataDir), (kernel) => internalsOf(kernel.database).knex(KEY_CHECK_TABLE).select());
    expect(rows).toHaveLength(1);
    expect(rows[0].key_check).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(generatedKey);
  });

  it('fails the boot with a key other than the one the database was sealed with, naming the setting', async () => {
    const boot1 = boot(dataDir, { secretsKey: generateSecretsKey() });
    await expect(boot1).rejects.toThrow(BootError);
    await expect(boot1).rejects.toThrow(/is not the key this database's secrets are sealed with.*FORGEKIT_SECRETS_KEY/);
  });

  it('opens with the same key given by setting or key file, as another process would', async () => {
    const opened = await withKernel(await boot(dataDir, { secretsKey: generatedKey }), (kernel) =>
      kernel.resolve(kernelServices.secrets).open(firstSealed).toString(),
    );
    expect(opened).toBe(plaintext);
    const reopened = await withKernel(await boot(dataDir, { secretsKeyFile: join(dataDir, GENERATED_KEY_FILE) }), (kernel) =>
      kernel.resolve(kernelServices.secrets).open(firstSealed).toString(),
    );
    expect(reopened).toBe(plaintext);
  });

  it.skipIf(!baseUrl)('refuses a process with its own data dir and no configured key, without generating one', async () => {
    const otherDir = await tempDir();
    await expect(boot(otherDir)).rejects.toThrow(/sealed with a key this process does not have.*FORGEKIT_SECRETS_KEY/);
    expect(existsSync(join(otherDir, GENERATED_KEY_FILE))).toBe(false);
  });

  it('refuses to start without the key file once the database holds its check', async () => {
    const keyFile = join(dataDir, GENERATED_KEY_FILE);
    rmSync(keyFile);
    try {
      await expect(boot(dataDir)).rejects.toThrow(/sealed with a key this process does not have.*FORGEKIT_SECRETS_KEY/);
      expect(existsSync(keyFile)).toBe(false);
    } finally {
      writeFileSync(keyFile, generatedKey, { mode: 0o600 });
    }
  });

  it('refuses a missing key file, a short key and both settings at once', async () => {
    const dir = await tempDir();
    await expect(boot(dir, { secretsKeyFile: join(dir, 'missing.key') })).rejects.toThrow('missing.key (FORGEKIT_SECRETS_KEY_FILE) does not exist');
    await expect(boot(dir, { secretsKey: 'short' })).rejects.toThrow("Invalid server config at 'secretsKey': secretsKey must be at least 32 characters");
    await expect(boot(dir, { secretsKey: generatedKey, secretsKeyFile: join(dir, 'x') })).rejects.toThrow('Set only one of FORGEKIT_SECRETS_KEY');
  });
});

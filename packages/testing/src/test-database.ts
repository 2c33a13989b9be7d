/** A fresh PostgreSQL database per test app when `FORGEKIT_TEST_DATABASE_URL` is set; otherwise in-memory SQLite. */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKernel, type ForgePlugin } from '@forgekit/kernel';
import pg from 'pg';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  /**
   * The plugins the database is for: it is then cloned from a database these plugins'
   * migrations were applied to once (kept as `<base>_tpl_<hash>` on the server), instead of
   * being migrated again for every app.
   */
  plugins?: readonly ForgePlugin<any>[];
}

export async function createTestDatabase(baseUrl = process.env.FORGEKIT_TEST_DATABASE_URL, options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  if (!baseUrl) return { url: ':memory:', drop: async () => undefined };
  const name = `forgekit_t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    // Without a template, or when these plugins fail to boot (as some tests expect), the app migrates the database itself.
    const template = options.plugins ? await migratedTemplate(admin, baseUrl, options.plugins).catch(() => undefined) : undefined;
    await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
    // A test database is thrown away: commits need not wait for the disk.
    await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  } finally {
    await admin.end();
  }
  const url = databaseUrl(baseUrl, name);
  return {
    url,
    async drop() {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

function databaseUrl(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The name of a database holding exactly what `plugins`' migrations (and the kernel's) make,
 * built on first use. The name hashes the migrations' names and code, so a changed migration
 * gets a new template.
 */
async function migratedTemplate(admin: pg.Client, baseUrl: string, plugins: readonly ForgePlugin<any>[]): Promise<string> {
  const migrations = plugins.flatMap((plugin) => (plugin.migrations ?? []).map((m) => `${plugin.id}:${m.name}:${m.up.toString()}`));
  const hash = createHash('sha256').update(migrations.sort().join('\n')).digest('hex').slice(0, 16);
  const base = new URL(baseUrl).pathname.slice(1).slice(0, 30) || 'postgres';
  const template = `${base}_tpl_${hash}`;
  const lock = createHash('sha256').update(template).digest().readInt32BE(0);
  // Test files in other workers may want the same template at the same time: one builds it.
  await admin.query('SELECT pg_advisory_lock($1)', [lock]);
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (!rowCount) await buildTemplate(admin, baseUrl, template, plugins);
  } finally {
    await admin.query('SELECT pg_advisory_unlock($1)', [lock]);
  }
  return template;
}

async function buildTemplate(admin: pg.Client, baseUrl: string, template: string, plugins: readonly ForgePlugin<any>[]) {
  const building = `${template}_new`;
  await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${building}`);
  const dataDir = await mkdtemp(join(tmpdir(), 'forgekit-template-'));
  try {
    // Booting the kernel applies the migrations; it also records a check of the secrets key
    // of this throwaway data dir, which each clone's own data dir must write again.
    const kernel = await createKernel({ plugins, config: { dataDir, databaseUrl: databaseUrl(baseUrl, building), logLevel: 'silent' } });
    await kernel.stop();
    const client = new pg.Client({ connectionString: databaseUrl(baseUrl, building) });
    await client.connect();
    try {
      await client.query('DELETE FROM secrets_key_check');
    } finally {
      await client.end();
    }
    await admin.query(`ALTER DATABASE ${building} RENAME TO ${template}`);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * Each plugin ships its own migrations, written with knex's schema builder so one
 * migration runs on SQLite and PostgreSQL alike. knex's migrator runs them, one
 * transaction each, recording names as `<plugin-id>:<name>`.
 */
import type { Knex } from '@mikro-orm/knex';

export interface PluginMigration {
  /** `<yyyymmddhhmm>-<slug>`; unique within the plugin, applied in list order. */
  name: string;
  up(knex: Knex): Promise<void>;
  down?(knex: Knex): Promise<void>;
}

export interface OwnedMigration {
  pluginId: string;
  migration: PluginMigration;
}

export const MIGRATIONS_TABLE = 'forgekit_migrations';

export async function runMigrations(knex: Knex, migrations: readonly OwnedMigration[]): Promise<string[]> {
  const byName = new Map<string, PluginMigration>();
  for (const { pluginId, migration } of migrations) {
    const name = `${pluginId}:${migration.name}`;
    if (byName.has(name)) throw new Error(`Plugin '${pluginId}' has two migrations named '${migration.name}'`);
    byName.set(name, migration);
  }
  const source: Knex.MigrationSource<string> = {
    getMigrations: async () => [...byName.keys()],
    getMigrationName: (name) => name,
    getMigration: async (name) => {
      const migration = byName.get(name)!;
      return { up: (trx: Knex) => migration.up(trx), down: (trx: Knex) => (migration.down ? migration.down(trx) : Promise.resolve()) };
    },
  };
  // Another process may hold the migration lock while it migrates the same database: wait for it.
  for (let attempt = 0; ; attempt++) {
    try {
      // No FS options here (`directory`, `sortDirsSeparately`, ...): knex would drop `migrationSource` for them.
      const [, applied] = await knex.migrate.latest({ migrationSource: source, tableName: MIGRATIONS_TABLE });
      return applied as string[];
    } catch (error) {
      const locked = error instanceof Error && /already locked/i.test(error.message);
      if (!locked || attempt >= 300) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/**
 * Instance settings (`/application/settings`). The core defines the common keys;
 * other plugins add their own with `define`, each with a schema and a default.
 */
import type * as v from 'valibot';
import { f, type Database } from '@forgekit/kernel';
import type { SettingDefinition, SettingsService } from '../contracts.js';
import { ApplicationSettingEntity } from '../entities/application-setting.js';

export function createSettingsService(database: Database): SettingsService {
  const byKey = database.prepareRows((p) => database.from(ApplicationSettingEntity).where('key', p.key));
  const definitions = new Map<string, SettingDefinition>();

  // Read on every use: several server processes may share the table.
  async function load() {
    const rows = await database.rows(database.from(ApplicationSettingEntity));
    return new Map(rows.map((row) => [row.key, JSON.parse(row.value)]));
  }

  return {
    define<T>(owner: string, key: string, field: v.GenericSchema<unknown, T>, fallback: T, options: { derive?: (value: T) => Record<string, unknown> } = {}) {
      const existing = definitions.get(key);
      if (existing) throw new Error(`Plugin '${owner}' defines application setting '${key}', which '${existing.owner}' already defines`);
      definitions.set(key, { key, field, default: fallback, owner, derive: options.derive } as SettingDefinition);
    },
    definitions: () => [...definitions.values()],
    async get(key: string): Promise<unknown> {
      const definition = definitions.get(key);
      if (!definition) throw new Error(`Unknown application setting '${key}'`);
      const row = await byKey.first({ key });
      return row ? JSON.parse(row.value) : definition.default;
    },
    async all(): Promise<Record<string, unknown>> {
      const stored = await load();
      return Object.fromEntries([...definitions.values()].map((d) => [d.key, stored.has(d.key) ? stored.get(d.key) : d.default]));
    },
    async set(given: Record<string, unknown>) {
      const derived: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(given)) Object.assign(derived, definitions.get(key)?.derive?.(value));
      const values = { ...derived, ...given };
      const rows = Object.entries(values).map(([key, value]) => ({ key, value: JSON.stringify(value) }));
      // One statement: every setting of the request lands, or none.
      await database.upsertMany(ApplicationSettingEntity, rows);
    },
  };
}

/** The settings the core defines. */
export function defineCoreSettings(settings: SettingsService) {
  const define = <T>(key: string, field: v.GenericSchema<unknown, T>, fallback: T) => settings.define('core', key, field, fallback);
  define('default_project_visibility', f.values(['private', 'internal', 'public']), 'private');
  define('default_group_visibility', f.values(['private', 'internal', 'public']), 'private');
  define('signup_enabled', f.boolean(), false);
  define('allow_local_requests_from_web_hooks_and_services', f.boolean(), false);
  define('allow_local_requests_from_system_hooks', f.boolean(), true);
  define('max_attachment_size', f.integer(), 100);
  define('max_import_size', f.integer(), 0);
  define('default_projects_limit', f.integer(), 100000);
  define('pages_domain_verification_enabled', f.boolean(), true);
  define('max_pages_size', f.integer(), 100);
  define('pages_extra_deployments_default_expiry_seconds', f.integer(), 86400);
  define('external_authorization_service_enabled', f.boolean(), false);
  define('user_default_external', f.boolean(), false);
  define('require_admin_approval_after_user_signup', f.boolean(), true);
}

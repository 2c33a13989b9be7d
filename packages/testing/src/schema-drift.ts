import type { ForgePlugin } from '@forgekit/kernel';
import { schemaDrift } from '@forgekit/kernel/orm';
import { createTestKernelApp } from './create-test-app.js';

/**
 * Boots `plugins` on a fresh database (SQLite, or PostgreSQL with FORGEKIT_TEST_DATABASE_URL),
 * runs their migrations, and lists, per plugin, where the schema differs from its entities.
 */
export async function schemaDriftOf(plugins: readonly ForgePlugin<any>[]): Promise<Record<string, string[]>> {
  const app = await createTestKernelApp({ plugins });
  try {
    const drift: Record<string, string[]> = {};
    for (const plugin of app.kernel.plugins) drift[plugin.id] = await schemaDrift(app.kernel.database, plugin.entities ?? []);
    return drift;
  } finally {
    await app.close();
  }
}

/**
 * PostgreSQL support comes from optional peer dependencies of the kernel, so a host on
 * SQLite installs none of them. A PostgreSQL `databaseUrl` imports them before anything is
 * opened, and a missing one fails the boot with the command that installs it.
 */
import { createRequire } from 'node:module';
import { BootError } from '../plugin/boot-order.js';

export const POSTGRES_PACKAGES = ['@mikro-orm/postgresql', 'pg', 'pg-boss'] as const;

const manifest = createRequire(import.meta.url)('../../package.json') as { peerDependencies?: Record<string, string> };

const notFound = (error: unknown, name: string) => {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && (message ?? '').includes(`'${name}'`);
};

/** Imports `packages` (the PostgreSQL drivers by default); throws a BootError naming the ones missing. */
export async function requireOptionalPeers(packages: readonly string[] = POSTGRES_PACKAGES, purpose = 'A PostgreSQL databaseUrl'): Promise<void> {
  const missing: string[] = [];
  for (const name of packages) {
    try {
      await import(name);
    } catch (error) {
      if (!notFound(error, name)) throw error;
      missing.push(name);
    }
  }
  if (missing.length === 0) return;
  const specs = missing.map((name) => (manifest.peerDependencies?.[name] ? `${name}@'${manifest.peerDependencies[name]}'` : name));
  throw new BootError(
    `${purpose} needs ${missing.join(', ')}, optional peer dependencies of @forgekit/kernel that are not installed. Install them with: npm install ${specs.join(' ')}`,
  );
}

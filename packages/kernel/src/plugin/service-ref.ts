import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A typed name for a service that a plugin provides and others resolve. */
export interface ServiceRef<T> {
  readonly id: string;
  /**
   * The npm package whose plugin provides the service, named in boot errors when no composed
   * plugin provides it. Given to `createServiceRef`, or found from the module that created
   * the ref: the nearest `package.json` whose `forgekit.pluginId` is the ref's plugin id.
   */
  readonly packageName?: string;
  /** Phantom field carrying the service type. */
  readonly $type?: T;
}

export interface ServiceRefOptions {
  /** The npm package that provides the service (default: found from the calling module's package). */
  packageName?: string;
}

/** The file of the function that called `createServiceRef`, from V8's structured stack. */
function callerFile(): string | undefined {
  const original = Error.prepareStackTrace;
  try {
    Error.prepareStackTrace = (_error, frames) => frames;
    const holder: { stack?: NodeJS.CallSite[] } = {};
    Error.captureStackTrace(holder, createServiceRef);
    const file = holder.stack?.[0]?.getFileName();
    if (!file) return undefined;
    return file.startsWith('file:') ? fileURLToPath(file) : file;
  } catch {
    return undefined;
  } finally {
    Error.prepareStackTrace = original;
  }
}

/**
 * The name of the package that holds `file`, if that package declares itself the plugin
 * `pluginId` (`"forgekit": { "pluginId": … }`). The check keeps a bundled host from naming
 * its own package, where every module shares one `package.json`.
 */
function pluginPackageOf(file: string, pluginId: string): string | undefined {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        const json = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; forgekit?: { pluginId?: string } };
        return json.forgekit?.pluginId === pluginId ? json.name : undefined;
      } catch {
        return undefined;
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

export function createServiceRef<T>(id: string, options: ServiceRefOptions = {}): ServiceRef<T> {
  if (!/^[a-z0-9-]+(\.[a-zA-Z0-9-]+)+$/.test(id)) {
    throw new Error(`Service ref id '${id}' must look like '<plugin-id>.<name>'`);
  }
  // Only the file name is taken now; its package is read if a boot error ever needs it.
  const file = options.packageName ? undefined : callerFile();
  let packageName = options.packageName;
  let looked = packageName !== undefined;
  return Object.freeze({
    id,
    get packageName() {
      if (!looked) {
        looked = true;
        packageName = file ? pluginPackageOf(file, id.slice(0, id.indexOf('.'))) : undefined;
      }
      return packageName;
    },
  });
}

/** `: add the plugin from the npm package <name>` when the ref knows its package; empty otherwise. */
export const packageHint = (ref: ServiceRef<unknown>) => (ref.packageName ? `: add the plugin from the npm package ${ref.packageName}` : '');

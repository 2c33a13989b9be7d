/** Phase-one checks: contract, compatibility, duplicates, and the order plugins register in. */
import semver from 'semver';
import type { EntitySchema } from '@mikro-orm/core';
import { PLUGIN_CONTRACT_VERSION, type ForgePlugin } from './define-plugin.js';
import { kernelServices } from './kernel-services.js';
import { packageHint } from './service-ref.js';

export class BootError extends Error {
  override name = 'BootError';
}

const KERNEL_REFS = new Set(
  Object.values(kernelServices)
    .map((ref) => ref.id)
    .filter((id) => id !== kernelServices.identity.id),
);

export function checkPlugins(plugins: readonly ForgePlugin<any>[], kernelVersion: string) {
  const seen = new Set<string>();
  for (const plugin of plugins) {
    if (seen.has(plugin.id)) throw new BootError(`Plugin '${plugin.id}' is added twice`);
    seen.add(plugin.id);
    if (plugin.version !== PLUGIN_CONTRACT_VERSION) {
      throw new BootError(`Plugin '${plugin.id}' uses plugin contract v${plugin.version}; this kernel speaks v${PLUGIN_CONTRACT_VERSION}`);
    }
    if (!semver.satisfies(kernelVersion, plugin.compatibility, { includePrerelease: true })) {
      throw new BootError(`Plugin '${plugin.id}' needs @forgekit/kernel ${plugin.compatibility}; this is ${kernelVersion}`);
    }
  }
}

/** Entities by name and table, failing on any name or table claimed twice. */
export function collectEntities(plugins: readonly Pick<ForgePlugin<any>, 'id' | 'entities'>[]): EntitySchema<any, any>[] {
  const names = new Map<string, string>();
  const tables = new Map<string, string>();
  const entities: EntitySchema<any, any>[] = [];
  for (const plugin of plugins) {
    for (const entity of plugin.entities ?? []) {
      const meta = entity.meta;
      const table = meta.tableName ?? meta.collection ?? meta.className;
      const nameOwner = names.get(meta.className);
      if (nameOwner) throw new BootError(`Plugin '${plugin.id}' defines entity '${meta.className}', which plugin '${nameOwner}' already defines`);
      const tableOwner = tables.get(table);
      if (tableOwner) throw new BootError(`Plugin '${plugin.id}' defines table '${table}', which plugin '${tableOwner}' already owns`);
      names.set(meta.className, plugin.id);
      tables.set(table, plugin.id);
      entities.push(entity);
    }
  }
  return entities;
}

/** Providers before their consumers; every required ref must have a provider. */
export function orderPlugins(plugins: readonly ForgePlugin<any>[]): ForgePlugin<any>[] {
  const providerOf = new Map<string, ForgePlugin<any>>();
  for (const plugin of plugins) {
    for (const ref of plugin.provides ?? []) {
      const other = providerOf.get(ref.id);
      if (other) throw new BootError(`Plugins '${other.id}' and '${plugin.id}' both provide service '${ref.id}'`);
      providerOf.set(ref.id, plugin);
    }
  }
  for (const plugin of plugins) {
    for (const ref of plugin.optional ?? []) {
      if ((plugin.requires ?? []).some((required) => required.id === ref.id)) {
        throw new BootError(`Plugin '${plugin.id}' lists service '${ref.id}' both in 'requires' and in 'optional'`);
      }
    }
    for (const ref of plugin.requires ?? []) {
      if (KERNEL_REFS.has(ref.id) || providerOf.has(ref.id)) continue;
      const known = [...providerOf.keys()].sort().join(', ') || 'none';
      throw new BootError(`Plugin '${plugin.id}' requires service '${ref.id}', which no plugin provides${packageHint(ref)} (provided: ${known})`);
    }
  }
  const ordered: ForgePlugin<any>[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (plugin: ForgePlugin<any>, trail: string[]) => {
    const current = state.get(plugin.id);
    if (current === 'done') return;
    if (current === 'visiting') throw new BootError(`Plugins depend on each other in a cycle: ${[...trail, plugin.id].join(' -> ')}`);
    state.set(plugin.id, 'visiting');
    for (const ref of [...(plugin.requires ?? []), ...(plugin.optional ?? [])]) {
      const provider = providerOf.get(ref.id);
      if (provider && provider !== plugin) visit(provider, [...trail, plugin.id]);
    }
    state.set(plugin.id, 'done');
    ordered.push(plugin);
  };
  for (const plugin of plugins) visit(plugin, []);
  return ordered;
}

/**
 * The router keeps one placeholder name per path position, so `/users/:id/block`
 * beside `/users/:user_id/tokens` would silently break one of them. Fail the boot instead.
 */
export function checkRouteParams(routes: readonly { pluginId: string; path: string }[]) {
  const seen = new Map<string, { name: string; pluginId: string; path: string }>();
  for (const route of routes) {
    const segments = route.path.split('/');
    segments.forEach((segment, index) => {
      if (!segment.startsWith(':')) return;
      const position = segments
        .slice(0, index)
        .map((s) => (s.startsWith(':') ? ':' : s))
        .join('/');
      const earlier = seen.get(position);
      if (!earlier) seen.set(position, { name: segment, pluginId: route.pluginId, path: route.path });
      else if (earlier.name !== segment) {
        throw new BootError(
          `Plugin '${route.pluginId}' route '${route.path}' names the placeholder '${segment}' where plugin '${earlier.pluginId}' route '${earlier.path}' names it '${earlier.name}'; routes must share placeholder names`,
        );
      }
    });
  }
}

/** Named storages (directories that hold bare repositories) and where each repository lives on them. */
import { createHash } from 'node:crypto';
import { isAbsolute, join, resolve } from 'node:path';
import * as v from 'valibot';
import { f } from '@forgekit/kernel';

export const REPOSITORY_KINDS = ['project', 'wiki', 'snippet', 'group_wiki'] as const;
export type RepositoryKind = (typeof REPOSITORY_KINDS)[number];

/** Which repository: a project's, a project's wiki, a snippet's or a group's wiki. */
export interface RepositoryKey {
  kind: RepositoryKind;
  containerId: number;
}

export const RepositoriesConfigSchema = v.object({
  /**
   * Storage name → directory. Relative directories are under the data dir. `default`
   * is always present (`<dataDir>/repositories` unless given).
   */
  storages: v.optional(
    v.record(v.pipe(v.string(), v.regex(/^[\w.-]+$/, 'storage names may hold letters, digits, _ . and -')), v.pipe(v.string(), v.minLength(1))),
    {},
  ),
});

export type RepositoriesConfig = v.InferOutput<typeof RepositoriesConfigSchema>;

export function resolveStorages(config: RepositoriesConfig, dataDir: string): ReadonlyMap<string, string> {
  const storages = new Map<string, string>();
  storages.set('default', join(dataDir, 'repositories'));
  for (const [name, dir] of Object.entries(config.storages)) storages.set(name, isAbsolute(dir) ? dir : resolve(dataDir, dir));
  return storages;
}

/** Project lists show `empty_repo`, which needs the path: remember recent ones rather than hash again. */
const hashedById = new Map<number, string>();
const HASHED_KEPT = 10_000;

const hashed = (id: number) => {
  let path = hashedById.get(id);
  if (path === undefined) {
    const hash = createHash('sha256').update(String(id)).digest('hex');
    path = `${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`;
    if (hashedById.size >= HASHED_KEPT) hashedById.clear();
    hashedById.set(id, path);
  }
  return path;
};

/** GitLab's hashed layout, relative to a storage. */
export function diskPathFor(key: RepositoryKey): string {
  switch (key.kind) {
    case 'project':
      return `@hashed/${hashed(key.containerId)}.git`;
    case 'wiki':
      return `@hashed/${hashed(key.containerId)}.wiki.git`;
    case 'snippet':
      return `@snippets/${hashed(key.containerId)}.git`;
    case 'group_wiki':
      return `@groups/${hashed(key.containerId)}.wiki.git`;
  }
}

/**
 * The `repository_storages_weighted` setting: storage name → weight 0..100, keys
 * limited to configured storages.
 */
export function weightsField(storages: ReadonlyMap<string, string>) {
  return v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const value = dataset.value;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        addIssue({ message: 'is invalid' });
        return NEVER;
      }
      const unknown = Object.keys(value).filter((name) => !storages.has(name));
      if (unknown.length > 0) {
        addIssue({ message: `can't include: ${unknown.join(', ')}` });
        return NEVER;
      }
      const weights: Record<string, number> = {};
      for (const [name, raw] of Object.entries(value as Record<string, unknown>)) {
        const parsed = v.safeParse(f.integer(), raw);
        if (!parsed.success) {
          addIssue({ message: `value for '${name}' must be an integer` });
          return NEVER;
        }
        if (parsed.output < 0 || parsed.output > 100) {
          addIssue({ message: `value for '${name}' must be between 0 and 100` });
          return NEVER;
        }
        weights[name] = parsed.output;
      }
      return weights;
    }),
  ) as v.GenericSchema<unknown, Record<string, number>>;
}

/** A storage drawn at random in proportion to its weight; `default` when no weight is set. */
export function pickByWeight(weights: Record<string, number>, storages: ReadonlyMap<string, string>, exclude?: string): string {
  const candidates = Object.entries(weights).filter(([name, weight]) => weight > 0 && storages.has(name) && name !== exclude);
  const total = candidates.reduce((sum, [, weight]) => sum + weight, 0);
  if (total === 0) {
    if (exclude === undefined || exclude !== 'default') return 'default';
    return [...storages.keys()].find((name) => name !== exclude) ?? 'default';
  }
  let draw = Math.random() * total;
  for (const [name, weight] of candidates) {
    draw -= weight;
    if (draw < 0) return name;
  }
  return candidates[candidates.length - 1]![0];
}

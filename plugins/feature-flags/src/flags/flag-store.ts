/** Flags with their strategies and scopes: reads through the entities, writes through the EntityManager. */
import type { Database } from '@forgekit/kernel';
import type { EntityManager } from '@forgekit/kernel/orm';
import { FeatureFlag, type FeatureFlagRow } from '../entities/feature-flag.js';
import { FeatureFlagScope, type FeatureFlagScopeRow } from '../entities/feature-flag-scope.js';
import { FeatureFlagStrategy, type FeatureFlagStrategyRow } from '../entities/feature-flag-strategy.js';
import { FeatureFlagUserList, type FeatureFlagUserListRow } from '../entities/feature-flag-user-list.js';
import type { StrategyDraft } from './flag-draft.js';

/** A strategy with its scopes and user list. */
export interface LoadedStrategy {
  row: FeatureFlagStrategyRow;
  scopes: FeatureFlagScopeRow[];
  userList: FeatureFlagUserListRow | null;
}

/** A flag with its strategies, ordered by id. */
export interface LoadedFlag {
  flag: FeatureFlagRow;
  strategies: LoadedStrategy[];
}

/** The only flag version that can still be created (`new_version_flag`). */
const NEW_VERSION_FLAG = 2;

function groupBy<K, V>(values: readonly V[], key: (value: V) => K): Map<K, V[]> {
  const groups = new Map<K, V[]>();
  for (const value of values) {
    const group = groups.get(key(value));
    if (group) group.push(value);
    else groups.set(key(value), [value]);
  }
  return groups;
}

export function createFlagStore(database: Database) {
  const ofProject = (projectId: number) => database.legacy.from(FeatureFlag).where('project_id', projectId);
  const strategiesOfProject = (projectId: number) =>
    database.legacy
      .table(FeatureFlagStrategy)
      .select('id')
      .whereIn('feature_flag_id', database.legacy.table(FeatureFlag).select('id').where('project_id', projectId));

  /**
   * Attaches strategies, their scopes and user lists to flags. With `wholeProject` the
   * children are read by project, so any number of flags costs three reads; otherwise by
   * the flags' ids (a page of them).
   */
  async function load(flags: FeatureFlagRow[], wholeProject?: number): Promise<LoadedFlag[]> {
    if (flags.length === 0) return [];
    const flagIds = flags.map((flag) => flag.id);
    const flagsOfProject = wholeProject === undefined ? null : database.legacy.table(FeatureFlag).select('id').where('project_id', wholeProject);
    const strategies = await database.legacy.rows(
      FeatureFlagStrategy,
      database.legacy
        .from(FeatureFlagStrategy)
        .whereIn('feature_flag_id', flagsOfProject ?? flagIds)
        .orderBy('id'),
    );
    const strategyIds = strategies.map((strategy) => strategy.id);
    const strategiesOf = wholeProject === undefined ? null : strategiesOfProject(wholeProject);
    const scopes =
      strategies.length === 0
        ? []
        : await database.legacy.rows(
            FeatureFlagScope,
            database.legacy
              .from(FeatureFlagScope)
              .whereIn('strategy_id', strategiesOf ?? strategyIds)
              .orderBy('id'),
          );
    const listIds = [...new Set(strategies.map((strategy) => strategy.userListId).filter((id): id is number => typeof id === 'number'))];
    const lists =
      listIds.length === 0
        ? []
        : await database.legacy.rows(
            FeatureFlagUserList,
            wholeProject === undefined
              ? database.legacy.from(FeatureFlagUserList).whereIn('id', listIds)
              : database.legacy.from(FeatureFlagUserList).where('project_id', wholeProject),
          );
    const listsById = new Map(lists.map((list) => [list.id, list]));
    const scopesByStrategy = groupBy(scopes, (scope) => scope.strategyId);
    const byFlag = groupBy(
      strategies.map((row) => ({
        row,
        scopes: scopesByStrategy.get(row.id) ?? [],
        userList: typeof row.userListId === 'number' ? (listsById.get(row.userListId) ?? null) : null,
      })),
      (loaded) => loaded.row.featureFlagId,
    );
    return flags.map((flag) => ({ flag, strategies: byFlag.get(flag.id) ?? [] }));
  }

  /** Writes the drafts' changes: deletes destroyed strategies and scopes, inserts new ones, updates changed ones. */
  async function saveStrategies(em: EntityManager, flagId: number, strategies: readonly StrategyDraft[], now: Date) {
    for (const strategy of strategies) {
      if (strategy.destroyed) {
        if (strategy.id !== null) {
          await em.nativeDelete(FeatureFlagScope, { strategyId: strategy.id });
          await em.nativeDelete(FeatureFlagStrategy, { id: strategy.id });
        }
        continue;
      }
      const values = {
        name: strategy.name!,
        parameters: strategy.parameters as Record<string, unknown>,
        userListId: strategy.userList?.id ?? null,
        updatedAt: now,
      };
      let strategyId = strategy.id;
      if (strategyId === null) strategyId = Number(await em.insert(FeatureFlagStrategy, { ...values, featureFlagId: flagId, createdAt: now }));
      else if (strategy.changed) await em.nativeUpdate(FeatureFlagStrategy, { id: strategyId }, values);
      for (const scope of strategy.scopes) {
        if (scope.destroyed) {
          if (scope.id !== null) await em.nativeDelete(FeatureFlagScope, { id: scope.id });
        } else if (scope.id === null) {
          await em.insert(FeatureFlagScope, { strategyId, environmentScope: scope.environmentScope!, createdAt: now, updatedAt: now });
        } else if (scope.changed) {
          await em.nativeUpdate(FeatureFlagScope, { id: scope.id }, { environmentScope: scope.environmentScope!, updatedAt: now });
        }
      }
    }
  }

  async function removeStrategies(em: EntityManager, strategyIds: number[]) {
    if (strategyIds.length === 0) return;
    await em.nativeDelete(FeatureFlagScope, { strategyId: { $in: strategyIds } });
    await em.nativeDelete(FeatureFlagStrategy, { id: { $in: strategyIds } });
  }

  return {
    load,

    /** One page of a project's flags by name, optionally only the enabled or disabled ones. */
    page: (projectId: number, active: boolean | undefined, limit: number, offset: number): Promise<FeatureFlagRow[]> => {
      const query = ofProject(projectId);
      if (active !== undefined) query.where('active', active);
      return database.legacy.rows(
        FeatureFlag,
        query
          .orderBy([{ column: 'name' }, { column: 'id' }])
          .limit(limit)
          .offset(offset),
      );
    },

    count: (projectId: number, active: boolean | undefined) => {
      const query = ofProject(projectId);
      if (active !== undefined) query.where('active', active);
      return database.legacy.count(query);
    },

    /** Every flag of a project, by id. */
    allOf: (projectId: number): Promise<FeatureFlagRow[]> => database.legacy.rows(FeatureFlag, ofProject(projectId).orderBy('id')),

    findByName: (projectId: number, name: string): Promise<FeatureFlagRow | undefined> =>
      database.legacy.row(FeatureFlag, ofProject(projectId).where('name', name)),
    findById: (id: number): Promise<FeatureFlagRow | undefined> => database.legacy.row(FeatureFlag, database.legacy.from(FeatureFlag).where('id', id)),

    /** Whether another flag of the project has this name (names compare case-sensitively). */
    async nameTaken(projectId: number, name: string | null, exceptId: number | null): Promise<boolean> {
      if (!name) return false;
      const query = ofProject(projectId).where('name', name);
      if (exceptId !== null) query.whereNot('id', exceptId);
      return (await database.legacy.count(query)) > 0;
    },

    /** User lists by id, from any project. */
    userLists: (ids: number[]): Promise<FeatureFlagUserListRow[]> =>
      database.legacy.rows(FeatureFlagUserList, database.legacy.from(FeatureFlagUserList).whereIn('id', ids)),

    /**
     * Inserts the flag unless its name is taken or the project already has `limit` flags
     * (0: no limit), as one atomic step, so the limit holds when creates race; then its
     * strategies and scopes. Null when the guard held the flag back.
     */
    async insert(projectId: number, flag: { name: string; description: string | null; active: boolean }, strategies: readonly StrategyDraft[], limit: number) {
      const now = new Date();
      const id = await database.legacy.insertGuarded(
        FeatureFlag,
        { projectId, ...flag, version: NEW_VERSION_FLAG, createdAt: now, updatedAt: now },
        {
          unlessExists: database.legacy.table(FeatureFlag).select('id').where({ project_id: projectId, name: flag.name }),
          count: { of: database.legacy.table(FeatureFlag).select('id').where('project_id', projectId), below: limit },
          lockKey: `feature-flags:flags:${projectId}`,
        },
      );
      if (id === null || strategies.length === 0) return id;
      try {
        await database.legacy.transaction((em) => saveStrategies(em, id, strategies, now));
      } catch (error) {
        // The flag goes with its strategies, or not at all.
        await database.legacy.em().nativeDelete(FeatureFlag, { id });
        throw error;
      }
      return id;
    },

    /** Saves the flag's attributes (when `attributes`) and its strategy changes in one transaction. */
    update(flagId: number, attributes: { name: string; description: string | null; active: boolean } | null, strategies: readonly StrategyDraft[]) {
      return database.legacy.transaction(async (em) => {
        const now = new Date();
        if (attributes) await em.nativeUpdate(FeatureFlag, { id: flagId }, { ...attributes, updatedAt: now });
        await saveStrategies(em, flagId, strategies, now);
      });
    },

    remove(loaded: LoadedFlag) {
      return database.legacy.transaction(async (em) => {
        await removeStrategies(
          em,
          loaded.strategies.map(({ row }) => row.id),
        );
        await em.nativeDelete(FeatureFlag, { id: loaded.flag.id });
      });
    },

    /** Whether a strategy uses the user list. */
    listInUse: async (userListId: number) => (await database.legacy.count(database.legacy.table(FeatureFlagStrategy).where('user_list_id', userListId))) > 0,

    /** Drops a project's flags with their strategies and scopes, inside `em`'s transaction. */
    async removeAllOf(em: EntityManager, projectId: number) {
      const strategyIds = (
        await database.legacy.rows(FeatureFlagStrategy, database.legacy.from(FeatureFlagStrategy).whereIn('id', strategiesOfProject(projectId)), { em })
      ).map((strategy) => strategy.id);
      await removeStrategies(em, strategyIds);
      await em.nativeDelete(FeatureFlag, { projectId });
    },
  };
}

export type FlagStore = ReturnType<typeof createFlagStore>;

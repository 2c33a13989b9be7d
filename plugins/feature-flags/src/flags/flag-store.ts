/** Flags with their strategies and scopes, read and written by property. */
import type { Database, Transaction } from '@forgekit/kernel';
import { FeatureFlagEntity, type FeatureFlagRow } from '../entities/feature-flag.js';
import { FeatureFlagScopeEntity, type FeatureFlagScopeRow } from '../entities/feature-flag-scope.js';
import { FeatureFlagStrategyEntity, type FeatureFlagStrategyRow } from '../entities/feature-flag-strategy.js';
import { FeatureFlagUserListEntity, type FeatureFlagUserListRow } from '../entities/feature-flag-user-list.js';
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
  const ofProject = (projectId: number) => database.from(FeatureFlagEntity).where('projectId', projectId);
  const flagIdsOfProject = (projectId: number) => database.table(FeatureFlagEntity).select('id').where('projectId', projectId);
  const strategiesOfProject = (projectId: number) =>
    database.table(FeatureFlagStrategyEntity).select('id').whereIn('featureFlagId', flagIdsOfProject(projectId));

  /**
   * Attaches strategies, their scopes and user lists to flags. With `wholeProject` the
   * children are read by project, so any number of flags costs three reads; otherwise by
   * the flags' ids (a page of them).
   */
  async function load(flags: FeatureFlagRow[], wholeProject?: number): Promise<LoadedFlag[]> {
    if (flags.length === 0) return [];
    const flagIds = flags.map((flag) => flag.id);
    const strategies = await database.rows(
      database
        .from(FeatureFlagStrategyEntity)
        .whereIn('featureFlagId', wholeProject === undefined ? flagIds : flagIdsOfProject(wholeProject))
        .orderBy('id'),
    );
    const strategyIds = strategies.map((strategy) => strategy.id);
    const scopes =
      strategies.length === 0
        ? []
        : await database.rows(
            database
              .from(FeatureFlagScopeEntity)
              .whereIn('strategyId', wholeProject === undefined ? strategyIds : strategiesOfProject(wholeProject))
              .orderBy('id'),
          );
    const listIds = [...new Set(strategies.map((strategy) => strategy.userListId).filter((id): id is number => typeof id === 'number'))];
    const lists =
      listIds.length === 0
        ? []
        : await database.rows(
            wholeProject === undefined
              ? database.from(FeatureFlagUserListEntity).whereIn('id', listIds)
              : database.from(FeatureFlagUserListEntity).where('projectId', wholeProject),
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
  async function saveStrategies(tx: Transaction, flagId: number, strategies: readonly StrategyDraft[], now: Date) {
    for (const strategy of strategies) {
      if (strategy.destroyed) {
        if (strategy.id !== null) await removeStrategies(tx, [strategy.id]);
        continue;
      }
      const values = {
        name: strategy.name!,
        parameters: strategy.parameters as Record<string, unknown>,
        userListId: strategy.userList?.id ?? null,
        updatedAt: now,
      };
      let strategyId = strategy.id;
      if (strategyId === null) strategyId = await database.insert(FeatureFlagStrategyEntity, { ...values, featureFlagId: flagId, createdAt: now }, { tx });
      else if (strategy.changed) await database.update(FeatureFlagStrategyEntity, { id: strategyId }, values, { tx });
      for (const scope of strategy.scopes) {
        if (scope.destroyed) {
          if (scope.id !== null) await database.delete(FeatureFlagScopeEntity, { id: scope.id }, { tx });
        } else if (scope.id === null) {
          await database.insert(FeatureFlagScopeEntity, { strategyId, environmentScope: scope.environmentScope!, createdAt: now, updatedAt: now }, { tx });
        } else if (scope.changed) {
          await database.update(FeatureFlagScopeEntity, { id: scope.id }, { environmentScope: scope.environmentScope!, updatedAt: now }, { tx });
        }
      }
    }
  }

  async function removeStrategies(tx: Transaction, strategyIds: number[]) {
    if (strategyIds.length === 0) return;
    await database.delete(FeatureFlagScopeEntity, { strategyId: { $in: strategyIds } }, { tx });
    await database.delete(FeatureFlagStrategyEntity, { id: { $in: strategyIds } }, { tx });
  }

  return {
    load,

    /** One page of a project's flags by name, optionally only the enabled or disabled ones. */
    page: (projectId: number, active: boolean | undefined, limit: number, offset: number): Promise<FeatureFlagRow[]> => {
      const query = ofProject(projectId);
      if (active !== undefined) query.where('active', active);
      return database.rows(query.orderBy('name').orderBy('id').limit(limit).offset(offset));
    },

    count: (projectId: number, active: boolean | undefined) => {
      const query = ofProject(projectId);
      if (active !== undefined) query.where('active', active);
      return database.count(query);
    },

    /** Every flag of a project, by id. */
    allOf: (projectId: number): Promise<FeatureFlagRow[]> => database.rows(ofProject(projectId).orderBy('id')),

    findByName: (projectId: number, name: string): Promise<FeatureFlagRow | undefined> => database.row(ofProject(projectId).where('name', name)),
    findById: (id: number): Promise<FeatureFlagRow | undefined> => database.row(database.from(FeatureFlagEntity).where('id', id)),

    /** Whether another flag of the project has this name (names compare case-sensitively). */
    async nameTaken(projectId: number, name: string | null, exceptId: number | null): Promise<boolean> {
      if (!name) return false;
      const query = ofProject(projectId).where('name', name);
      if (exceptId !== null) query.whereNot('id', exceptId);
      return (await database.count(query)) > 0;
    },

    /** User lists by id, from any project. */
    userLists: (ids: number[]): Promise<FeatureFlagUserListRow[]> => database.rows(database.from(FeatureFlagUserListEntity).whereIn('id', ids)),

    /**
     * Inserts the flag unless its name is taken or the project already has `limit` flags
     * (0: no limit), as one atomic step, so the limit holds when creates race; then its
     * strategies and scopes. Null when the guard held the flag back.
     */
    async insert(projectId: number, flag: { name: string; description: string | null; active: boolean }, strategies: readonly StrategyDraft[], limit: number) {
      const now = new Date();
      const id = await database.insertGuarded(
        FeatureFlagEntity,
        { projectId, ...flag, version: NEW_VERSION_FLAG, createdAt: now, updatedAt: now },
        {
          unlessExists: database.table(FeatureFlagEntity).select('id').where({ projectId, name: flag.name }),
          count: { of: flagIdsOfProject(projectId), below: limit },
          lockKey: `feature-flags:flags:${projectId}`,
        },
      );
      if (id === null || strategies.length === 0) return id;
      try {
        await database.transaction((tx) => saveStrategies(tx, id, strategies, now));
      } catch (error) {
        // The flag goes with its strategies, or not at all.
        await database.delete(FeatureFlagEntity, { id });
        throw error;
      }
      return id;
    },

    /** Saves the flag's attributes (when `attributes`) and its strategy changes in one transaction. */
    update(flagId: number, attributes: { name: string; description: string | null; active: boolean } | null, strategies: readonly StrategyDraft[]) {
      return database.transaction(async (tx) => {
        const now = new Date();
        if (attributes) await database.update(FeatureFlagEntity, { id: flagId }, { ...attributes, updatedAt: now }, { tx });
        await saveStrategies(tx, flagId, strategies, now);
      });
    },

    remove(loaded: LoadedFlag) {
      return database.transaction(async (tx) => {
        await removeStrategies(
          tx,
          loaded.strategies.map(({ row }) => row.id),
        );
        await database.delete(FeatureFlagEntity, { id: loaded.flag.id }, { tx });
      });
    },

    /** Whether a strategy uses the user list. */
    listInUse: async (userListId: number) => (await database.count(database.table(FeatureFlagStrategyEntity).where('userListId', userListId))) > 0,

    /** Drops a project's flags with their strategies and scopes, inside `tx`. */
    async removeAllOf(tx: Transaction, projectId: number) {
      const strategyIds = (await database.rows(database.from(FeatureFlagStrategyEntity).whereIn('id', strategiesOfProject(projectId)), { tx })).map(
        (strategy) => strategy.id,
      );
      await removeStrategies(tx, strategyIds);
      await database.delete(FeatureFlagEntity, { projectId }, { tx });
    },
  };
}

export type FlagStore = ReturnType<typeof createFlagStore>;

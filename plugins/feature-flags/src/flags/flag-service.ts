/**
 * Feature flags with their strategies and scopes: reads, and the create and update
 * rules of GitLab (nested strategies and scopes updated by id, `_destroy`, user list
 * checks), saved in one transaction.
 */
import { apiError, recordNotFound, type PageRequest } from '@forgekit/kernel';
import { toBool, type Knex } from '@forgekit/kernel/orm';
import type { PlanLimitsService } from '@forgekit/plugin-plan-limits';
import type { FlagRow, LoadedFlag, UserListRow } from '../shared/rows.js';
import { nameTakenOnConflict } from '../shared/constraint-violations.js';
import { nameTaken } from '../shared/name-taken.js';
import { pagedRows } from '../shared/paged-rows.js';
import { flagMessages, type FlagDraft, type ScopeDraft, type StrategyDraft } from './flag-draft.js';
import { loadFlags } from './flag-loader.js';
import type { CreateFlagInput, UpdateFlagInput } from './flag-params.js';
import { USER_LIST_STRATEGY } from './strategy-rules.js';

type StrategyItem = NonNullable<UpdateFlagInput['strategies']>[number];
type ScopeItem = NonNullable<StrategyItem['scopes']>[number];

const invalid = (messages: string[]) => apiError(400, messages);

/** The plan limit on how many flags one project may have. */
export const FLAG_LIMIT = 'project_feature_flags';

/** A strategy draft that also remembers its saved name, to drop a user list when the name moves away from it. */
interface EditableStrategy extends StrategyDraft {
  savedName: string | null;
}

export function createFlagService(db: Knex, limits: PlanLimitsService) {
  /** Lists by id from any project; a missing one is the framework's 404. */
  async function userListsById(ids: (number | null | undefined)[]) {
    const wanted = ids.filter((id) => id !== undefined);
    // An explicit null looks a list up by no id at all, which finds nothing.
    if (wanted.includes(null)) throw recordNotFound();
    const unique = [...new Set(wanted as number[])];
    const rows = unique.length > 0 ? await db<UserListRow>('feature_flag_user_lists').whereIn('id', unique) : [];
    if (rows.length !== unique.length) throw recordNotFound();
    return new Map(rows.map((row) => [row.id, row]));
  }

  function newScope(environmentScope: string | null | undefined): ScopeDraft {
    return {
      id: null,
      environmentScope: environmentScope === undefined || environmentScope === null ? null : environmentScope.trim(),
      destroyed: false,
      changed: true,
    };
  }

  function applyScopes(strategy: StrategyDraft, items: ScopeItem[]) {
    for (const item of items) {
      if (item.id === undefined || item.id === null) {
        if (!item._destroy) strategy.scopes.push(newScope(item.environment_scope));
        continue;
      }
      const scope = strategy.scopes.find((candidate) => candidate.id === item.id);
      if (!scope) throw recordNotFound();
      if (item.environment_scope !== undefined) scope.environmentScope = (item.environment_scope ?? '').trim();
      if (item._destroy) scope.destroyed = true;
      scope.changed = true;
    }
    strategy.changed = true;
  }

  function applyStrategy(strategy: EditableStrategy, item: StrategyItem, lists: Map<number, UserListRow>) {
    if (item.name !== undefined) strategy.name = item.name;
    if (item.parameters !== undefined) strategy.parameters = item.parameters;
    if (item.user_list_id !== undefined) strategy.userList = lists.get(item.user_list_id!)!;
    if (item.scopes) applyScopes(strategy, item.scopes);
    strategy.changed = true;
  }

  function editable(loaded: LoadedFlag): EditableStrategy[] {
    return loaded.strategies.map(({ row, scopes, userList }) => ({
      id: row.id,
      name: row.name,
      savedName: row.name,
      parameters: JSON.parse(row.parameters) as unknown,
      userList,
      scopes: scopes.map((scope) => ({ id: scope.id, environmentScope: scope.environment_scope, destroyed: false, changed: false })),
      destroyed: false,
      changed: false,
    }));
  }

  async function saveStrategies(trx: Knex, flagId: number, strategies: StrategyDraft[], now: Date) {
    for (const strategy of strategies) {
      if (strategy.destroyed) {
        if (strategy.id !== null) {
          await trx('feature_flag_scopes').where('strategy_id', strategy.id).delete();
          await trx('feature_flag_strategies').where('id', strategy.id).delete();
        }
        continue;
      }
      const values = { name: strategy.name!, parameters: JSON.stringify(strategy.parameters), user_list_id: strategy.userList?.id ?? null, updated_at: now };
      let strategyId = strategy.id;
      if (strategyId === null) {
        const [row] = await trx('feature_flag_strategies')
          .insert({ ...values, feature_flag_id: flagId, created_at: now })
          .returning('id');
        strategyId = (row as { id: number }).id;
      } else if (strategy.changed) {
        await trx('feature_flag_strategies').where('id', strategyId).update(values);
      }
      for (const scope of strategy.scopes) {
        if (scope.destroyed) {
          if (scope.id !== null) await trx('feature_flag_scopes').where('id', scope.id).delete();
        } else if (scope.id === null) {
          await trx('feature_flag_scopes').insert({ strategy_id: strategyId, environment_scope: scope.environmentScope!, created_at: now, updated_at: now });
        } else if (scope.changed) {
          await trx('feature_flag_scopes').where('id', scope.id).update({ environment_scope: scope.environmentScope!, updated_at: now });
        }
      }
    }
  }

  const inTransaction = <T>(work: (trx: Knex) => Promise<T>) => nameTakenOnConflict(() => db.transaction(work));

  /** GitLab checks the plan limit first, so its message leads the list. */
  async function limitMessages(projectId: number): Promise<string[]> {
    const [counted] = await db('feature_flags').where('project_id', projectId).count({ n: '*' });
    const message = await limits.exceededMessage(FLAG_LIMIT, Number(counted!.n));
    return message === null ? [] : [message];
  }

  async function findById(id: number): Promise<LoadedFlag> {
    const row = await db<FlagRow>('feature_flags').where('id', id).first();
    return (await loadFlags(db, [row!]))[0]!;
  }

  return {
    /** One page of a project's flags, by name. */
    async list(projectId: number, scope: string | null | undefined, page: PageRequest) {
      const query = db<FlagRow>('feature_flags').where('project_id', projectId);
      if (scope) query.where('active', scope === 'enabled');
      const { rows, total } = await pagedRows<FlagRow>(query, page, ['name', 'id']);
      return { items: await loadFlags(db, rows), total };
    },

    async findByName(projectId: number, name: string): Promise<LoadedFlag | null> {
      const row = await db<FlagRow>('feature_flags').where({ project_id: projectId, name }).first();
      return row ? (await loadFlags(db, [row]))[0]! : null;
    },

    async create(projectId: number, input: CreateFlagInput): Promise<LoadedFlag> {
      if (input.version !== undefined && input.version !== 'new_version_flag') throw apiError(400, 'Version is invalid');
      const items = input.strategies ?? [];
      const lists = await userListsById(items.map((item) => item.user_list_id));
      const draft: FlagDraft = {
        name: input.name,
        description: input.description ?? null,
        active: input.active ?? true,
        strategies: items.map((item) => ({
          id: null,
          name: item.name,
          parameters: item.parameters === undefined ? {} : item.parameters,
          userList: item.user_list_id === undefined ? null : lists.get(item.user_list_id!)!,
          scopes: (item.scopes ?? []).map((scope) => newScope(scope.environment_scope)),
          destroyed: false,
          changed: true,
        })),
      };
      const messages = [
        ...(await limitMessages(projectId)),
        ...flagMessages(draft, projectId, await nameTaken(db, 'feature_flags', projectId, draft.name, null)),
      ];
      if (messages.length > 0) throw invalid(messages);
      const id = await inTransaction(async (trx) => {
        const now = new Date();
        const [row] = await trx('feature_flags')
          .insert({
            project_id: projectId,
            name: draft.name,
            description: draft.description,
            active: draft.active,
            version: 2,
            created_at: now,
            updated_at: now,
          })
          .returning('id');
        const flagId = (row as { id: number }).id;
        await saveStrategies(trx, flagId, draft.strategies, now);
        return flagId;
      });
      return findById(id);
    },

    async update(loaded: LoadedFlag, input: UpdateFlagInput): Promise<LoadedFlag> {
      const { flag } = loaded;
      const items = input.strategies ?? [];
      const listIds = [...new Set(items.map((item) => item.user_list_id).filter((id): id is number => id !== undefined && id !== null))];
      if (listIds.length > 0) {
        const [counted] = await db('feature_flag_user_lists').whereIn('id', listIds).where('project_id', flag.project_id).count({ n: '*' });
        // GitLab's own text here, not the framework's "404 Not found".
        if (Number(counted!.n) !== listIds.length) throw apiError(404, 'Not Found');
      }
      const lists = await userListsById(items.map((item) => item.user_list_id));
      const strategies = editable(loaded);
      for (const item of items) {
        if (item.id === undefined || item.id === null) {
          if (item._destroy) continue;
          const created: EditableStrategy = {
            id: null,
            name: null,
            savedName: null,
            parameters: {},
            userList: null,
            scopes: [],
            destroyed: false,
            changed: true,
          };
          applyStrategy(created, item, lists);
          strategies.push(created);
          continue;
        }
        const strategy = strategies.find((candidate) => candidate.id === item.id);
        if (!strategy) throw recordNotFound();
        applyStrategy(strategy, item, lists);
        if (item._destroy) strategy.destroyed = true;
      }
      for (const strategy of strategies) {
        if (strategy.savedName === USER_LIST_STRATEGY && strategy.name !== USER_LIST_STRATEGY) strategy.userList = null;
      }
      const draft: FlagDraft = {
        name: input.name !== undefined ? input.name : flag.name,
        description: input.description !== undefined ? input.description : flag.description,
        active: input.active === undefined || input.active === null ? toBool(flag.active) : input.active,
        strategies,
      };
      const renamed = draft.name !== flag.name;
      const messages = flagMessages(draft, flag.project_id, renamed && (await nameTaken(db, 'feature_flags', flag.project_id, draft.name, flag.id)));
      if (messages.length > 0) throw invalid(messages);
      await inTransaction(async (trx) => {
        const now = new Date();
        const attributesChanged = renamed || draft.description !== flag.description || draft.active !== toBool(flag.active);
        if (attributesChanged) {
          await trx('feature_flags').where('id', flag.id).update({ name: draft.name, description: draft.description, active: draft.active, updated_at: now });
        }
        await saveStrategies(trx, flag.id, draft.strategies, now);
      });
      return findById(flag.id);
    },

    async remove(loaded: LoadedFlag) {
      await db.transaction(async (trx) => {
        const strategyIds = loaded.strategies.map(({ row }) => row.id);
        if (strategyIds.length > 0) {
          await trx('feature_flag_scopes').whereIn('strategy_id', strategyIds).delete();
          await trx('feature_flag_strategies').whereIn('id', strategyIds).delete();
        }
        await trx('feature_flags').where('id', loaded.flag.id).delete();
      });
    },
  };
}

export type FlagService = ReturnType<typeof createFlagService>;

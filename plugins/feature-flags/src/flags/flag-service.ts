/**
 * Feature flags with their strategies and scopes: reads, and the create and update
 * rules of GitLab (nested strategies and scopes updated by id, `_destroy`, user list
 * checks), saved in one transaction.
 */
import { apiError, conflict, patchFrom, recordNotFound, totalFor, type PageRequest } from '@forgekit/kernel';
import { unlessTaken } from '@forgekit/kernel/orm';
import type { PlanLimitsService } from '@forgekit/plugin-plan-limits/contracts';
import type { FeatureFlagUserListRow } from '../entities/feature-flag-user-list.js';
import { taken } from '../shared/validation-messages.js';
import { flagMessages, type FlagDraft, type ScopeDraft, type StrategyDraft } from './flag-draft.js';
import type { CreateFlagInput, UpdateFlagInput } from './flag-params.js';
import type { FlagStore, LoadedFlag } from './flag-store.js';
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

export function createFlagService(store: FlagStore, limits: PlanLimitsService) {
  /** Lists by id from any project; a missing one is the framework's 404. */
  async function userListsById(ids: (number | null | undefined)[]) {
    const wanted = ids.filter((id) => id !== undefined);
    // An explicit null looks a list up by no id at all, which finds nothing.
    if (wanted.includes(null)) throw recordNotFound();
    const unique = [...new Set(wanted as number[])];
    const rows = unique.length > 0 ? await store.userLists(unique) : [];
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

  function applyStrategy(strategy: EditableStrategy, item: StrategyItem, lists: Map<number, FeatureFlagUserListRow>) {
    Object.assign(
      strategy,
      patchFrom<StrategyDraft, StrategyItem>(item, { name: 'name', parameters: 'parameters', user_list_id: { to: 'userList', as: (id) => lists.get(id!)! } }),
    );
    if (item.scopes) applyScopes(strategy, item.scopes);
    strategy.changed = true;
  }

  function editable(loaded: LoadedFlag): EditableStrategy[] {
    return loaded.strategies.map(({ row, scopes, userList }) => ({
      id: row.id,
      name: row.name,
      savedName: row.name,
      parameters: row.parameters,
      userList,
      scopes: scopes.map((scope) => ({ id: scope.id, environmentScope: scope.environmentScope, destroyed: false, changed: false })),
      destroyed: false,
      changed: false,
    }));
  }

  /** A name a concurrent request took meanwhile reads as the usual validation error. */
  const nameTakenOnConflict = <T>(write: Promise<T>) =>
    unlessTaken(write, () => {
      throw invalid([taken('Name')]);
    });

  /** GitLab checks the plan limit first, so its message leads the list. */
  async function limitMessages(projectId: number): Promise<string[]> {
    const message = await limits.exceededMessage(FLAG_LIMIT, await store.count(projectId, undefined));
    return message === null ? [] : [message];
  }

  async function findById(id: number): Promise<LoadedFlag> {
    return (await store.load([(await store.findById(id))!]))[0]!;
  }

  async function createMessages(projectId: number, draft: FlagDraft) {
    return [...(await limitMessages(projectId)), ...flagMessages(draft, projectId, await store.nameTaken(projectId, draft.name, null))];
  }

  return {
    /** One page of a project's flags, by name. */
    async list(projectId: number, scope: string | null | undefined, page: PageRequest) {
      const active = scope ? scope === 'enabled' : undefined;
      const rows = await store.page(projectId, active, page.perPage, page.offset);
      const total = await totalFor(page, rows.length, () => store.count(projectId, active));
      return { items: await store.load(rows), total };
    },

    async findByName(projectId: number, name: string): Promise<LoadedFlag | null> {
      const row = await store.findByName(projectId, name);
      return row ? (await store.load([row]))[0]! : null;
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
      const messages = await createMessages(projectId, draft);
      if (messages.length > 0) throw invalid(messages);
      const flag = { name: draft.name!, description: draft.description, active: draft.active };
      const id = await nameTakenOnConflict(store.insert(projectId, flag, draft.strategies, await limits.get(FLAG_LIMIT)));
      if (id === null) {
        // Another create took the name or the last place meanwhile.
        const now = await createMessages(projectId, draft);
        throw now.length > 0 ? invalid(now) : conflict();
      }
      return findById(id);
    },

    async update(loaded: LoadedFlag, input: UpdateFlagInput): Promise<LoadedFlag> {
      const { flag } = loaded;
      const items = input.strategies ?? [];
      const listIds = [...new Set(items.map((item) => item.user_list_id).filter((id): id is number => id !== undefined && id !== null))];
      if (listIds.length > 0) {
        const found = await store.userLists(listIds);
        // GitLab's own text here, not the framework's "404 Not found".
        if (found.filter((list) => list.projectId === flag.projectId).length !== listIds.length) throw apiError(404, 'Not Found');
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
        description: input.description !== undefined ? input.description : (flag.description ?? null),
        active: input.active === undefined || input.active === null ? flag.active : input.active,
        strategies,
      };
      const renamed = draft.name !== flag.name;
      const messages = flagMessages(draft, flag.projectId, renamed && (await store.nameTaken(flag.projectId, draft.name, flag.id)));
      if (messages.length > 0) throw invalid(messages);
      const attributesChanged = renamed || draft.description !== flag.description || draft.active !== flag.active;
      const attributes = attributesChanged ? { name: draft.name!, description: draft.description, active: draft.active } : null;
      await nameTakenOnConflict(store.update(flag.id, attributes, draft.strategies));
      return findById(flag.id);
    },

    remove: (loaded: LoadedFlag) => store.remove(loaded),
  };
}

export type FlagService = ReturnType<typeof createFlagService>;

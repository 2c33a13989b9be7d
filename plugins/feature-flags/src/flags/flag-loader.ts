import type { Knex } from '@forgekit/kernel/orm';
import type { FlagRow, LoadedFlag, ScopeRow, StrategyRow, UserListRow } from '../shared/rows.js';

function append<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Attaches strategies (by id), their scopes (by id) and user lists to flags. With
 * `wholeProject` the children are read by project, so any number of flags costs three
 * queries; otherwise by the flags' ids (a page of them).
 */
export async function loadFlags(db: Knex, flags: FlagRow[], wholeProject?: number): Promise<LoadedFlag[]> {
  if (flags.length === 0) return [];
  const strategyQuery = db<StrategyRow>('feature_flag_strategies as s').select('s.*').orderBy('s.id');
  if (wholeProject === undefined)
    strategyQuery.whereIn(
      's.feature_flag_id',
      flags.map((flag) => flag.id),
    );
  else strategyQuery.join('feature_flags as f', 'f.id', 's.feature_flag_id').where('f.project_id', wholeProject);
  const strategies: StrategyRow[] = await strategyQuery;

  let scopes: ScopeRow[] = [];
  if (strategies.length > 0) {
    const scopeQuery = db<ScopeRow>('feature_flag_scopes as c').select('c.*').orderBy('c.id');
    if (wholeProject === undefined)
      scopeQuery.whereIn(
        'c.strategy_id',
        strategies.map((strategy) => strategy.id),
      );
    else
      scopeQuery
        .join('feature_flag_strategies as s', 's.id', 'c.strategy_id')
        .join('feature_flags as f', 'f.id', 's.feature_flag_id')
        .where('f.project_id', wholeProject);
    scopes = await scopeQuery;
  }

  const listIds = [...new Set(strategies.map((strategy) => strategy.user_list_id).filter((id): id is number => id !== null))];
  let lists: UserListRow[] = [];
  if (listIds.length > 0) {
    lists =
      wholeProject === undefined
        ? await db<UserListRow>('feature_flag_user_lists').whereIn('id', listIds)
        : await db<UserListRow>('feature_flag_user_lists').where('project_id', wholeProject);
  }
  const listsById = new Map(lists.map((list) => [list.id, list]));

  const scopesByStrategy = new Map<number, ScopeRow[]>();
  for (const scope of scopes) append(scopesByStrategy, scope.strategy_id, scope);
  const byFlag = new Map<number, LoadedFlag['strategies']>();
  for (const row of strategies) {
    const loaded = { row, scopes: scopesByStrategy.get(row.id) ?? [], userList: row.user_list_id === null ? null : (listsById.get(row.user_list_id) ?? null) };
    append(byFlag, row.feature_flag_id, loaded);
  }
  return flags.map((flag) => ({ flag, strategies: byFlag.get(flag.id) ?? [] }));
}

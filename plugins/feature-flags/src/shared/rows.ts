/** Row shapes as this plugin's tables hold them (snake_case, raw driver values). */
export interface FlagRow {
  id: number;
  project_id: number;
  name: string;
  description: string | null;
  active: unknown;
  version: number;
  created_at: unknown;
  updated_at: unknown;
}

export interface StrategyRow {
  id: number;
  feature_flag_id: number;
  name: string;
  /** JSON text. */
  parameters: string;
  user_list_id: number | null;
  created_at: unknown;
  updated_at: unknown;
}

export interface ScopeRow {
  id: number;
  strategy_id: number;
  environment_scope: string;
  created_at: unknown;
  updated_at: unknown;
}

export interface UserListRow {
  id: number;
  project_id: number;
  iid: number;
  name: string;
  user_xids: string;
  created_at: unknown;
  updated_at: unknown;
}

/** A strategy with its scopes and user list. */
export interface LoadedStrategy {
  row: StrategyRow;
  scopes: ScopeRow[];
  userList: UserListRow | null;
}

/** A flag with its strategies, ordered by id. */
export interface LoadedFlag {
  flag: FlagRow;
  strategies: LoadedStrategy[];
}

/** GitLab's FeatureFlag entity with its strategies and their scopes. */
import { userListBasic } from '../user-lists/user-list-presenter.js';
import type { LoadedFlag, LoadedStrategy } from './flag-store.js';

export const strategyEntity = ({ row, scopes, userList }: LoadedStrategy) => ({
  id: row.id,
  name: row.name,
  parameters: row.parameters,
  scopes: scopes.map((scope) => ({ id: scope.id, environment_scope: scope.environmentScope })),
  user_list: userList ? userListBasic(userList) : null,
});

export const flagEntity = ({ flag, strategies }: LoadedFlag) => ({
  name: flag.name,
  description: flag.description,
  active: flag.active,
  // Legacy flags can no longer be created, so every flag is a version 2 flag.
  version: 'new_version_flag',
  created_at: flag.createdAt.toISOString(),
  updated_at: flag.updatedAt.toISOString(),
  scopes: [],
  strategies: strategies.map(strategyEntity),
});

/** GitLab's FeatureFlag entity with its strategies and their scopes. */
import { toBool, toIso } from '@forgekit/kernel/orm';
import type { LoadedFlag, LoadedStrategy } from '../shared/rows.js';
import { userListBasic } from '../user-lists/user-list-presenter.js';

export const strategyEntity = ({ row, scopes, userList }: LoadedStrategy) => ({
  id: row.id,
  name: row.name,
  parameters: JSON.parse(row.parameters) as unknown,
  scopes: scopes.map((scope) => ({ id: scope.id, environment_scope: scope.environment_scope })),
  user_list: userList ? userListBasic(userList) : null,
});

export const flagEntity = ({ flag, strategies }: LoadedFlag) => ({
  name: flag.name,
  description: flag.description,
  active: toBool(flag.active),
  // Legacy flags can no longer be created, so every flag is a version 2 flag.
  version: 'new_version_flag',
  created_at: toIso(flag.created_at),
  updated_at: toIso(flag.updated_at),
  scopes: [],
  strategies: strategies.map(strategyEntity),
});

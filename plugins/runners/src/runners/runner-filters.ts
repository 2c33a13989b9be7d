/** The filters every runner list accepts, applied to a query over `ci_runners as r`. */
import { apiError, f, type Database } from '@forgekit/kernel';
import type { Knex } from '@forgekit/kernel/orm';
import * as v from 'valibot';
import { CiRunnerManager } from '../entities/runner-manager.js';
import { CiRunnerTag } from '../entities/runner-tag.js';
import { RUNNER_TYPES } from './runner-row.js';
import { onlineDeadline, staleDeadline } from './runner-status.js';

export const DEPRECATED_STATUSES = ['active', 'paused'] as const;
export const STATUSES = ['online', 'offline', 'never_contacted', 'stale'] as const;
export const STATUSES_INCL_DEPRECATED = [...DEPRECATED_STATUSES, ...STATUSES];
/** Every value the deprecated `scope` parameter takes on the lists that accept all of them. */
export const SCOPES = ['specific', 'shared', ...RUNNER_TYPES, ...STATUSES_INCL_DEPRECATED];

const versionPrefix = () =>
  v.pipe(
    f.string(),
    v.check((value) => /^[\d+.]/m.test(value), 'is invalid'),
  );

/** `type`, `paused`, `status`, `tag_list` and `version_prefix`. */
export const filterFields = {
  type: f.optional(f.values([...RUNNER_TYPES])),
  paused: f.optional(f.boolean()),
  status: f.optional(f.values(STATUSES_INCL_DEPRECATED)),
  tag_list: f.optional(f.commaList()),
  version_prefix: f.optional(versionPrefix()),
};

/** The deprecated `scope` parameter. */
export const scopeField = { scope: f.optional(f.values(SCOPES)) };

export interface RunnerFilters {
  scope?: string | null;
  type?: string | null;
  paused?: boolean | null;
  status?: string | null;
  tag_list?: string[] | null;
  version_prefix?: string | null;
}

function applyScope(query: Knex.QueryBuilder, scope: string) {
  const now = Date.now();
  switch (scope) {
    case 'specific':
      return query.whereIn('r.runner_type', ['group_type', 'project_type']);
    case 'shared':
      return query.where('r.runner_type', 'instance_type');
    case 'instance_type':
    case 'group_type':
    case 'project_type':
      return query.where('r.runner_type', scope);
    case 'active':
      return query.where('r.active', true);
    case 'paused':
      return query.where('r.active', false);
    case 'online':
      return query.where('r.contacted_at', '>', onlineDeadline(now));
    case 'offline':
      return query.where('r.contacted_at', '<=', onlineDeadline(now));
    case 'never_contacted':
      return query.whereNull('r.contacted_at');
    case 'stale': {
      const deadline = staleDeadline(now);
      return query.where('r.created_at', '<=', deadline).where((q) => q.whereNull('r.contacted_at').orWhere('r.contacted_at', '<=', deadline));
    }
    default:
      return query;
  }
}

/** A scope the list does not allow: `400 Scope contains invalid value`. */
export function filterByScope(query: Knex.QueryBuilder, scope: string | null | undefined, allowed: readonly string[] = SCOPES) {
  if (!scope) return query;
  if (!allowed.includes(scope)) throw apiError(400, 'Scope contains invalid value');
  return applyScope(query, scope);
}

export function applyFilters(database: Database, query: Knex.QueryBuilder, filters: RunnerFilters) {
  const ofRunner = (entity: typeof CiRunnerManager | typeof CiRunnerTag, alias: string) =>
    database.legacy.table(entity, alias).where(`${alias}.runner_id`, database.legacy.knex.ref('r.id')).select(`${alias}.id`);
  filterByScope(query, filters.type, RUNNER_TYPES);
  filterByScope(query, filters.status, STATUSES_INCL_DEPRECATED);
  // As in GitLab, a `paused` sent without a value selects active runners.
  if (filters.paused !== undefined) query.where('r.active', !filters.paused);
  if (filters.version_prefix) {
    const pattern = `${filters.version_prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query.whereExists(ofRunner(CiRunnerManager, 'm').whereRaw(`m.version like ? escape '\\'`, [pattern]));
  }
  for (const tag of filters.tag_list ?? []) {
    query.whereExists(ofRunner(CiRunnerTag, 't').where('t.name', tag));
  }
  return query;
}

/** The filters every runner list accepts, applied to a query over runners aliased `r`. */
import { apiError, f } from '@forgekit/kernel';
import type { Conditions, Query } from '@forgekit/kernel/orm';
import * as v from 'valibot';
import type { RunnerEntity } from '../entities/runner.js';
import { RunnerManagerEntity } from '../entities/runner-manager.js';
import { RunnerTagEntity } from '../entities/runner-tag.js';
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

type Runners = { r: typeof RunnerEntity };
/** A query over runners aliased `r`, which the lists narrow, and a group of its conditions. */
export type RunnerQuery = Query<Runners, 'r'>;
export type RunnerConditions = Conditions<Runners, 'r'>;

function applyScope(query: RunnerQuery, scope: string) {
  const now = Date.now();
  switch (scope) {
    case 'specific':
      return query.whereIn('r.runnerType', ['group_type', 'project_type']);
    case 'shared':
      return query.where('r.runnerType', 'instance_type');
    case 'instance_type':
    case 'group_type':
    case 'project_type':
      return query.where('r.runnerType', scope);
    case 'active':
      return query.where('r.active', true);
    case 'paused':
      return query.where('r.active', false);
    case 'online':
      return query.where('r.contactedAt', '>', onlineDeadline(now));
    case 'offline':
      return query.where('r.contactedAt', '<=', onlineDeadline(now));
    case 'never_contacted':
      return query.whereNull('r.contactedAt');
    case 'stale': {
      const deadline = staleDeadline(now);
      return query.where('r.createdAt', '<=', deadline).where((q) => q.whereNull('r.contactedAt').orWhere('r.contactedAt', '<=', deadline));
    }
    default:
      return query;
  }
}

/** A scope the list does not allow: `400 Scope contains invalid value`. */
export function filterByScope(query: RunnerQuery, scope: string | null | undefined, allowed: readonly string[] = SCOPES) {
  if (!scope) return query;
  if (!allowed.includes(scope)) throw apiError(400, 'Scope contains invalid value');
  return applyScope(query, scope);
}

export function applyFilters(query: RunnerQuery, filters: RunnerFilters) {
  filterByScope(query, filters.type, RUNNER_TYPES);
  filterByScope(query, filters.status, STATUSES_INCL_DEPRECATED);
  // As in GitLab, a `paused` sent without a value selects active runners.
  if (filters.paused !== undefined) query.where('r.active', !filters.paused);
  const prefix = filters.version_prefix;
  if (prefix) query.whereExists(RunnerManagerEntity, 'm', (m) => m.whereColumn('m.runnerId', 'r.id').whereStartsWith('m.version', prefix));
  for (const tag of filters.tag_list ?? []) query.whereExists(RunnerTagEntity, 't', (t) => t.whereColumn('t.runnerId', 'r.id').where('t.name', tag));
  return query;
}

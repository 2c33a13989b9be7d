/** Declared parameters, in GitLab's declaration order (it decides the order of joined messages). */
import { f, params, rules } from '@forgekit/kernel';

const text = () => f.optional(f.string());
const flag = () => f.optional(f.boolean());

export const listParams = params(
  {
    state: f.optional(f.values(['active', 'closed', 'all'] as const), 'all'),
    iids: f.optional(f.commaList(f.integer())),
    title: text(),
    search: text(),
    include_parent_milestones: flag(),
    include_ancestors: flag(),
    updated_before: f.optional(f.datetime()),
    updated_after: f.optional(f.datetime()),
  },
  rules.mutuallyExclusive('include_ancestors', 'include_parent_milestones'),
);

export const oneParams = params({ milestone_id: f.integer() });

export const createParams = params({ title: f.string(), description: text(), due_date: text(), start_date: text() });

export const updateParams = params(
  {
    milestone_id: f.integer(),
    title: text(),
    state_event: f.optional(f.values(['close', 'activate'] as const)),
    description: text(),
    due_date: text(),
    start_date: text(),
  },
  rules.atLeastOneOf('title', 'description', 'start_date', 'due_date', 'state_event'),
);

/** Declared parameters, in GitLab's declaration order (it decides the order of joined messages). */
import { f, params, rules } from '@forgekit/kernel';

const text = () => f.optional(f.string());
const flag = () => f.optional(f.boolean());

const listFields = {
  state: f.optional(f.values(['active', 'closed', 'all'] as const), 'all'),
  iids: f.optional(f.commaList(f.id())),
  title: text(),
  search: text(),
  include_parent_milestones: flag(),
  include_ancestors: flag(),
  updated_before: f.optional(f.datetime()),
  updated_after: f.optional(f.datetime()),
};
const ancestorsRule = rules.mutuallyExclusive('include_ancestors', 'include_parent_milestones');

export const projectListParams = params(listFields, ancestorsRule);
/** Groups also take `include_descendants`: milestones of subgroups and of projects below, as the caller sees them. */
export const groupListParams = params({ ...listFields, include_descendants: flag() }, ancestorsRule);

export const oneParams = params({ milestone_id: f.id() });

export const createParams = params({ title: f.string(), description: text(), due_date: text(), start_date: text() });

export const updateParams = params(
  {
    milestone_id: f.id(),
    title: text(),
    state_event: f.optional(f.values(['close', 'activate'] as const)),
    description: text(),
    due_date: text(),
    start_date: text(),
  },
  rules.atLeastOneOf('title', 'description', 'start_date', 'due_date', 'state_event'),
);

/** The three places variables live, and where GitLab treats them differently. */
export type OwnerKind = 'project' | 'group' | 'instance';

export interface Owner {
  kind: OwnerKind;
  /** Project or group id; 0 for the instance. */
  id: number;
}

export interface KindRules {
  /** `404 <notFound> Not Found` for a missing variable. */
  notFound: string;
  /** The plan limit on how many variables one owner may have. */
  limit: string;
  /** Environment scopes, hidden values and `filter[environment_scope]`. */
  scoped: boolean;
  /** Longest value in characters, if limited. */
  maxValueLength?: number;
  /** PUT without a filter takes the first variable with the key instead of answering 409. */
  updatePicksFirst: boolean;
  /** DELETE honours `If-Unmodified-Since` (412). */
  conditionalDelete: boolean;
}

export const KIND_RULES: Record<OwnerKind, KindRules> = {
  project: { notFound: 'Variable', limit: 'project_ci_variables', scoped: true, updatePicksFirst: false, conditionalDelete: false },
  group: { notFound: 'GroupVariable', limit: 'group_ci_variables', scoped: true, updatePicksFirst: true, conditionalDelete: true },
  instance: { notFound: 'InstanceVariable', limit: 'ci_instance_level_variables', scoped: false, maxValueLength: 10_000, updatePicksFirst: false, conditionalDelete: false },
};

export const INSTANCE_OWNER: Owner = { kind: 'instance', id: 0 };

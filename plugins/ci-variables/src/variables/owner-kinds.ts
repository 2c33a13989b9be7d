/** The three places variables live, and where GitLab treats them differently. */
import { TEXT_LIMIT, tooLongMessage } from '@forgekit/kernel';

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
  /** Longest value in characters, and the text for a longer one. */
  valueLimit: { max: number; message: string };
  /** PUT without a filter takes the first variable with the key instead of answering 409. */
  updatePicksFirst: boolean;
  /** DELETE honours `If-Unmodified-Since` (412). */
  conditionalDelete: boolean;
}

/** GitLab limits only instance values; project and group values get the product's bound for unlimited text. */
const UNLIMITED_VALUE = { max: TEXT_LIMIT, message: tooLongMessage(TEXT_LIMIT) };
const INSTANCE_VALUE_LIMIT = 10_000;

export const KIND_RULES: Record<OwnerKind, KindRules> = {
  project: {
    notFound: 'Variable',
    limit: 'project_ci_variables',
    scoped: true,
    valueLimit: UNLIMITED_VALUE,
    updatePicksFirst: false,
    conditionalDelete: false,
  },
  group: { notFound: 'GroupVariable', limit: 'group_ci_variables', scoped: true, valueLimit: UNLIMITED_VALUE, updatePicksFirst: true, conditionalDelete: true },
  instance: {
    notFound: 'InstanceVariable',
    limit: 'ci_instance_level_variables',
    scoped: false,
    valueLimit: { max: INSTANCE_VALUE_LIMIT, message: `The value of the provided variable exceeds the ${INSTANCE_VALUE_LIMIT} character limit` },
    updatePicksFirst: false,
    conditionalDelete: false,
  },
};

export const INSTANCE_OWNER: Owner = { kind: 'instance', id: 0 };

import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

export type VariableType = 'env_var' | 'file';
export type OwnerType = 'project' | 'group' | 'instance';

/** A CI/CD variable of a project, a group or the instance (`owner_type`, `owner_id` 0 for the instance). */
export const CiVariableEntity = defineEntity({
  name: 'CiVariable',
  tableName: 'ci_variables',
  // One row per key and scope; this index also serves listing and lookups by key.
  uniques: [{ properties: ['ownerType', 'ownerId', 'key', 'environmentScope'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    ownerType: p.string().$type<OwnerType>().length(16),
    ownerId: p.integer(),
    key: p.string().length(255),
    value: p.text(),
    variableType: p.string().$type<VariableType>().length(16).default('env_var'),
    protected: p.boolean().default(false),
    masked: p.boolean().default(false),
    hidden: p.boolean().default(false),
    raw: p.boolean().default(false),
    environmentScope: p.string().length(255).default('*'),
    description: p.string().length(255).nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type CiVariableRow = InferEntity<typeof CiVariableEntity>;

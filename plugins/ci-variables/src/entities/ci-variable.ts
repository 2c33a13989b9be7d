import { defineEntity } from '@forgekit/kernel/orm';

/** A CI/CD variable of a project, a group or the instance (`owner_type`, `owner_id` 0 for the instance). */
export const CiVariable = defineEntity({
  name: 'CiVariable',
  tableName: 'ci_variables',
  properties: (p) => ({
    id: p.integer().primary(),
    ownerType: p.string().length(16),
    ownerId: p.integer(),
    key: p.string().length(255),
    value: p.text(),
    variableType: p.string().length(16),
    protected: p.boolean(),
    masked: p.boolean(),
    hidden: p.boolean(),
    raw: p.boolean(),
    environmentScope: p.string().length(255),
    description: p.string().length(255).nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

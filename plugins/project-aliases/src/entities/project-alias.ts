import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** Another name for a project, unique across the instance: `git clone http://host/<name>.git`. */
export const ProjectAliasEntity = defineEntity({
  name: 'ProjectAlias',
  tableName: 'project_aliases',
  uniques: [{ properties: ['name'] }],
  indexes: [{ properties: ['projectId'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    projectId: p.integer(),
    name: p.string().length(255),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type ProjectAliasRow = InferEntity<typeof ProjectAliasEntity>;

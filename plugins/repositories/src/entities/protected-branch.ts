import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** A protected branch or wildcard pattern of a project. */
export const ProtectedBranchEntity = defineEntity({
  name: 'ProtectedBranch',
  tableName: 'protected_branches',
  uniques: [{ properties: ['projectId', 'name'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    projectId: p.integer(),
    name: p.string().length(1024),
    allowForcePush: p.boolean().default(false),
    codeOwnerApprovalRequired: p.boolean().default(false),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

/** Who may push, merge or unprotect: one role level for one action of a protected branch. */
export const ProtectedBranchAccessLevelEntity = defineEntity({
  name: 'ProtectedBranchAccessLevel',
  tableName: 'protected_branch_access_levels',
  indexes: [{ properties: ['protectedBranchId'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    protectedBranchId: p.integer(),
    action: p.string().length(16),
    accessLevel: p.integer(),
    createdAt: p.datetime(),
  }),
});

export type ProtectedBranchRow = InferEntity<typeof ProtectedBranchEntity>;
export type ProtectedBranchAccessLevelRow = InferEntity<typeof ProtectedBranchAccessLevelEntity>;

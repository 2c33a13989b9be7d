import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** A project issue; `iid` counts per project. */
export const IssueEntity = defineEntity({
  name: 'Issue',
  tableName: 'issues',
  uniques: [{ properties: ['projectId', 'iid'] }],
  indexes: [{ properties: ['authorId'] }, { properties: ['milestoneId'] }, { properties: ['projectId', 'createdAt', 'id'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    projectId: p.integer(),
    iid: p.integer(),
    title: p.string().length(255),
    description: p.text().nullable(),
    state: p.string().$type<'opened' | 'closed'>().length(16).default('opened'),
    confidential: p.boolean().default(false),
    discussionLocked: p.boolean().nullable(),
    authorId: p.integer(),
    milestoneId: p.integer().nullable(),
    iterationId: p.integer().nullable(),
    dueDate: p.date().nullable(),
    closedAt: p.datetime().nullable(),
    closedById: p.integer().nullable(),
    updatedById: p.integer().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    /** Raised by every update of the row: the version presented issues are cached by. */
    lockVersion: p.integer().version().default(0),
  }),
});

export type IssueRow = InferEntity<typeof IssueEntity>;

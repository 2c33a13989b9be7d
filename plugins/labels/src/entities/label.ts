import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

export type LabelOwnerType = 'project' | 'group';

/** A project label or a group label (`owner_type`, `owner_id`). */
export const LabelEntity = defineEntity({
  name: 'Label',
  tableName: 'labels',
  // One title per owner; this index also serves listing an owner's labels and lookups by title.
  uniques: [{ properties: ['ownerType', 'ownerId', 'title'] }],
  indexes: [{ properties: ['title'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    ownerType: p.string().$type<LabelOwnerType>().length(16),
    ownerId: p.integer(),
    title: p.string().length(255),
    color: p.string().length(7),
    description: p.text().nullable(),
    archived: p.boolean().default(false),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    /** Raised by every update of the row: the version presented labels are cached by. */
    lockVersion: p.integer().version().default(0),
  }),
});

export type LabelRow = InferEntity<typeof LabelEntity>;

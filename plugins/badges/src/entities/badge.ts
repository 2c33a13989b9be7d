import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

export type BadgeKind = 'project' | 'group';

/** A badge of a project or a group: a link and an image, whose URLs may hold `%{...}` placeholders. */
export const BadgeEntity = defineEntity({
  name: 'Badge',
  tableName: 'badges',
  // A source's badges, oldest first; a project's list reads its own and its groups' this way.
  indexes: [{ properties: ['kind', 'ownerId', 'createdAt'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    kind: p.string().$type<BadgeKind>().length(16),
    /** The project's or the group's id. */
    ownerId: p.integer(),
    name: p.string().length(255).nullable(),
    linkUrl: p.text(),
    imageUrl: p.text(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type BadgeRow = InferEntity<typeof BadgeEntity>;

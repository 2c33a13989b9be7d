import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** What an award emoji is given to: a noteable or a note. */
export type AwardableType = 'Issue' | 'MergeRequest' | 'Snippet' | 'WikiPage' | 'Note';

/** An emoji reaction of one user on a noteable or a note. */
export const AwardEmojiEntity = defineEntity({
  name: 'AwardEmoji',
  tableName: 'award_emoji',
  indexes: [{ properties: ['awardableType', 'awardableId'] }, { properties: ['projectId'] }, { properties: ['userId'] }],
  uniques: [{ properties: ['awardableType', 'awardableId', 'userId', 'name'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    name: p.string().length(255),
    userId: p.integer(),
    awardableType: p.string().$type<AwardableType>().length(32),
    awardableId: p.integer(),
    projectId: p.integer().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type AwardEmojiRow = InferEntity<typeof AwardEmojiEntity>;

/** JSON Schema of the award emoji answer (`award-emoji-routes.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';
import { userBasicSchema } from '@forgekit/plugin-core/contracts';

/** GitLab's AwardEmoji, on a noteable or on one of its notes. */
export const awardEmojiSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    user: { anyOf: [userBasicSchema, { type: 'null' }] },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    awardable_id: { type: 'integer' },
    awardable_type: { type: 'string', enum: ['Issue', 'MergeRequest', 'Snippet', 'WikiPage', 'Note'] },
    url: { type: ['string', 'null'] },
  },
  required: ['id', 'name', 'user', 'created_at', 'updated_at', 'awardable_id', 'awardable_type', 'url'],
};

/** JSON Schemas of the user answers (`user-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

const nullable = (type: string): JsonSchema => ({ type: [type, 'null'] });

/** GitLab's UserBasic: every user answer holds at least these fields. */
export const userBasicSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    username: { type: 'string' },
    public_email: nullable('string'),
    name: { type: 'string' },
    state: { type: 'string' },
    locked: { type: 'boolean' },
    avatar_url: nullable('string'),
    web_url: { type: 'string' },
  },
  required: ['id', 'username', 'public_email', 'name', 'state', 'locked', 'avatar_url', 'web_url'],
};

/** `GET /user`: the caller's own view (an admin's adds the admin fields). */
export const currentUserSchema: JsonSchema = {
  allOf: [
    userBasicSchema,
    {
      type: 'object',
      properties: {
        created_at: { type: 'string', format: 'date-time' },
        bio: { type: 'string' },
        bot: { type: 'boolean' },
        email: { type: 'string' },
        confirmed_at: nullable('string'),
        last_activity_on: nullable('string'),
        projects_limit: { type: 'integer' },
        identities: { type: 'array' },
        can_create_group: { type: 'boolean' },
        can_create_project: { type: 'boolean' },
        two_factor_enabled: { type: 'boolean' },
        external: { type: 'boolean' },
        private_profile: { type: 'boolean' },
        commit_email: { type: 'string' },
        is_admin: { type: 'boolean' },
      },
      required: [
        'created_at',
        'bot',
        'email',
        'projects_limit',
        'identities',
        'can_create_group',
        'can_create_project',
        'two_factor_enabled',
        'external',
        'private_profile',
        'commit_email',
      ],
    },
  ],
};

/** JSON Schemas of the user answers (`user-presenter.ts`), for the API description. */
import { type JsonSchema, nullable } from '@forgekit/kernel';

const dateTime: JsonSchema = { type: 'string', format: 'date-time' };

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

/**
 * `GET /users/:id`: the profile. `created_at`, `followers` and `following` are left out of a
 * private profile others look at; `is_followed` is there for signed-in callers.
 */
export const userDetailSchema: JsonSchema = {
  allOf: [
    userBasicSchema,
    {
      type: 'object',
      properties: {
        created_at: dateTime,
        bio: { type: 'string' },
        location: { type: 'string' },
        skype: { type: 'string' },
        linkedin: { type: 'string' },
        twitter: { type: 'string' },
        discord: { type: 'string' },
        website_url: { type: 'string' },
        organization: { type: 'string' },
        job_title: { type: 'string' },
        pronouns: nullable('string'),
        bot: { type: 'boolean' },
        work_information: nullable('string'),
        followers: { type: 'integer' },
        following: { type: 'integer' },
        is_followed: { type: 'boolean' },
        local_time: nullable('string'),
      },
      required: [
        'bio',
        'location',
        'skype',
        'linkedin',
        'twitter',
        'discord',
        'website_url',
        'organization',
        'job_title',
        'pronouns',
        'bot',
        'work_information',
        'local_time',
      ],
    },
  ],
};

/** `GET /user`: the caller's own view (an admin's adds the admin fields). */
export const currentUserSchema: JsonSchema = {
  allOf: [
    userDetailSchema,
    {
      type: 'object',
      properties: {
        created_at: dateTime,
        followers: { type: 'integer' },
        following: { type: 'integer' },
        last_sign_in_at: nullable('string'),
        confirmed_at: { type: ['string', 'null'], format: 'date-time' },
        last_activity_on: { type: ['string', 'null'], format: 'date' },
        email: { type: 'string' },
        theme_id: { type: 'integer' },
        color_scheme_id: { type: 'integer' },
        projects_limit: { type: 'integer' },
        current_sign_in_at: nullable('string'),
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
        'followers',
        'following',
        'last_sign_in_at',
        'confirmed_at',
        'last_activity_on',
        'email',
        'theme_id',
        'color_scheme_id',
        'projects_limit',
        'current_sign_in_at',
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

/** A user as administrators see one: what `POST` and `PUT /users` answer. */
export const userWithAdminSchema: JsonSchema = {
  allOf: [
    currentUserSchema,
    {
      type: 'object',
      properties: {
        is_admin: { type: 'boolean' },
        note: nullable('string'),
        namespace_id: nullable('integer'),
        created_by: { anyOf: [userBasicSchema, { type: 'null' }] },
        current_sign_in_ip: nullable('string'),
        last_sign_in_ip: nullable('string'),
      },
      required: ['is_admin', 'note', 'namespace_id', 'created_by', 'current_sign_in_ip', 'last_sign_in_ip'],
    },
  ],
};

/** Block, unblock, deactivate, activate: `true` when done, `null` when the user already was so. */
export const userStateChangeSchema: JsonSchema = { type: ['boolean', 'null'] };

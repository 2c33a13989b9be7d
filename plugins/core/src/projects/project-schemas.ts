/** JSON Schemas of the project answers (`project-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';
import { namespaceBasicSchema, visibilitySchema } from '../shared/namespace-schemas.js';
import { userBasicSchema } from '../users/user-schemas.js';
import { ACCESS_LEVEL_SETTINGS } from './project-settings.js';

const string: JsonSchema = { type: 'string' };
const boolean: JsonSchema = { type: 'boolean' };
const integer: JsonSchema = { type: 'integer' };
const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
const strings: JsonSchema = { type: 'array', items: string };

/** GitLab's ProjectIdentity, the start of every project representation. */
export const projectIdentitySchema: JsonSchema = {
  type: 'object',
  properties: {
    id: integer,
    description: string,
    name: string,
    name_with_namespace: string,
    path: string,
    path_with_namespace: string,
    created_at: dateTime,
  },
  required: ['id', 'description', 'name', 'name_with_namespace', 'path', 'path_with_namespace', 'created_at'],
};

/** GitLab's BasicProjectDetails: `simple=true` lists, anonymous lists, a group's projects. */
export const projectBasicSchema: JsonSchema = {
  allOf: [
    projectIdentitySchema,
    {
      type: 'object',
      properties: {
        default_branch: { type: ['string', 'null'] },
        tag_list: strings,
        topics: strings,
        ssh_url_to_repo: string,
        http_url_to_repo: string,
        web_url: string,
        readme_url: { type: ['string', 'null'] },
        forks_count: integer,
        avatar_url: { type: ['string', 'null'] },
        star_count: integer,
        last_activity_at: dateTime,
        namespace: namespaceBasicSchema,
      },
      required: [
        'default_branch',
        'tag_list',
        'topics',
        'ssh_url_to_repo',
        'http_url_to_repo',
        'web_url',
        'readme_url',
        'forks_count',
        'avatar_url',
        'star_count',
        'last_activity_at',
        'namespace',
      ],
    },
  ],
};

const featureAccessLevel: JsonSchema = { type: 'string', enum: ['disabled', 'private', 'enabled', 'public'] };
const levelGrant: JsonSchema = {
  anyOf: [
    { type: 'object', properties: { access_level: integer, notification_level: integer }, required: ['access_level', 'notification_level'] },
    { type: 'null' },
  ],
};

const LINKS = ['self', 'issues', 'merge_requests', 'repo_branches', 'labels', 'events', 'members', 'cluster_agents'];

/** The full view's own fields, each always sent. */
const fullFields: Record<string, JsonSchema> = {
  container_registry_image_prefix: string,
  _links: { type: 'object', properties: Object.fromEntries(LINKS.map((link) => [link, string])), required: LINKS },
  packages_enabled: boolean,
  empty_repo: boolean,
  archived: boolean,
  visibility: visibilitySchema,
  resolve_outdated_diff_discussions: boolean,
  container_registry_enabled: boolean,
  issues_enabled: boolean,
  merge_requests_enabled: boolean,
  wiki_enabled: boolean,
  jobs_enabled: boolean,
  snippets_enabled: boolean,
  service_desk_enabled: boolean,
  can_create_merge_request_in: boolean,
  ...Object.fromEntries(ACCESS_LEVEL_SETTINGS.map((key) => [key, featureAccessLevel])),
  emails_disabled: boolean,
  emails_enabled: boolean,
  shared_runners_enabled: boolean,
  lfs_enabled: boolean,
  creator_id: { type: ['integer', 'null'] },
  import_status: string,
  open_issues_count: integer,
  ci_config_path: { type: ['string', 'null'] },
  public_jobs: boolean,
  build_timeout: integer,
  auto_devops_enabled: boolean,
  shared_with_groups: { type: 'array' },
  only_allow_merge_if_pipeline_succeeds: boolean,
  allow_merge_on_skipped_pipeline: { type: ['boolean', 'null'] },
  request_access_enabled: boolean,
  only_allow_merge_if_all_discussions_are_resolved: boolean,
  remove_source_branch_after_merge: boolean,
  printing_merge_request_link_enabled: boolean,
  merge_method: { type: 'string', enum: ['merge', 'rebase_merge', 'ff'] },
  squash_option: { type: 'string', enum: ['never', 'always', 'default_on', 'default_off'] },
  autoclose_referenced_issues: boolean,
};

/**
 * GitLab's Project: reads and writes of one project, and lists for signed-in callers. A
 * personal project adds its `owner`, an administrator sees `repository_storage`, and a
 * signed-in caller's read adds `permissions`.
 */
export const projectSchema: JsonSchema = {
  allOf: [
    projectBasicSchema,
    {
      type: 'object',
      properties: {
        ...fullFields,
        owner: userBasicSchema,
        repository_storage: string,
        permissions: { type: 'object', properties: { project_access: levelGrant, group_access: levelGrant }, required: ['project_access', 'group_access'] },
      },
      required: Object.keys(fullFields),
    },
  ],
};

import {
  accepted,
  defineRoute,
  f,
  params,
  reply,
  rules,
  structuredError,
  validationFailed,
  type EventBus,
  type Principal,
  type Database,
  type RequestContext,
  type Route,
  acceptedSchema,
} from '@forgekit/kernel';
import { ARCHIVED_PROJECT_GUARD } from '../access/archived-project-guard.js';
import type { VisibilityFilter } from '../access/access-service.js';
import type { AccessService, Namespace, Project, ProjectPermissions, ProjectService, SettingsService, User } from '../contracts.js';
import { NamespaceEntity } from '../entities/namespace.js';
import { ProjectEntity } from '../entities/project.js';
import { readGroupSettings } from '../groups/group-settings.js';
import { AccessLevel, Visibility, VISIBILITY_NAMES } from '../shared/levels.js';
import { pathFromName } from '../shared/path-rules.js';
import { usersQuery } from '../users/user-query.js';
import type { ProjectFragments } from './project-fragments.js';
import { projectListRoute } from './project-list.js';
import { projectFull } from './project-presenter.js';
import { ACCESS_LEVEL_SETTINGS, PROJECT_SETTING_DEFAULTS, type ProjectSettings } from './project-settings.js';
import { projectSchema } from './project-schemas.js';
import { coreEvents } from '../events.js';

const accessLevelField = () => f.optional(f.values(['disabled', 'private', 'enabled', 'public']));

const settingFields = {
  ...Object.fromEntries(ACCESS_LEVEL_SETTINGS.map((key) => [key, accessLevelField()])),
  emails_enabled: f.optional(f.boolean()),
  shared_runners_enabled: f.optional(f.boolean()),
  lfs_enabled: f.optional(f.boolean()),
  request_access_enabled: f.optional(f.boolean()),
  only_allow_merge_if_pipeline_succeeds: f.optional(f.boolean()),
  allow_merge_on_skipped_pipeline: f.optional(f.boolean()),
  only_allow_merge_if_all_discussions_are_resolved: f.optional(f.boolean()),
  remove_source_branch_after_merge: f.optional(f.boolean()),
  printing_merge_request_link_enabled: f.optional(f.boolean()),
  resolve_outdated_diff_discussions: f.optional(f.boolean()),
  merge_method: f.optional(f.values(['merge', 'rebase_merge', 'ff'])),
  squash_option: f.optional(f.values(['never', 'always', 'default_on', 'default_off'])),
  ci_config_path: f.optional(f.string()),
  public_jobs: f.optional(f.boolean()),
  build_timeout: f.optional(f.integer()),
  auto_devops_enabled: f.optional(f.boolean()),
  autoclose_referenced_issues: f.optional(f.boolean()),
  packages_enabled: f.optional(f.boolean()),
  service_desk_enabled: f.optional(f.boolean()),
};

/** The legacy `*_enabled` booleans map onto access levels. */
const LEGACY_FLAGS: Record<string, string> = {
  issues_enabled: 'issues_access_level',
  merge_requests_enabled: 'merge_requests_access_level',
  wiki_enabled: 'wiki_access_level',
  jobs_enabled: 'builds_access_level',
  snippets_enabled: 'snippets_access_level',
  container_registry_enabled: 'container_registry_access_level',
};

const legacyFields = Object.fromEntries(Object.keys(LEGACY_FLAGS).map((key) => [key, f.optional(f.boolean())]));

function settingsFrom(input: Record<string, unknown>): Partial<ProjectSettings> {
  const settings: Record<string, unknown> = {};
  for (const [flag, level] of Object.entries(LEGACY_FLAGS)) if (typeof input[flag] === 'boolean') settings[level] = input[flag] ? 'enabled' : 'disabled';
  for (const key of Object.keys(PROJECT_SETTING_DEFAULTS)) if (input[key] !== undefined) settings[key] = input[key];
  return settings as Partial<ProjectSettings>;
}

const commonFields = {
  description: f.optional(f.string()),
  visibility: f.optional(f.values(VISIBILITY_NAMES)),
  default_branch: f.optional(f.string()),
  topics: f.optional(f.commaList()),
  tag_list: f.optional(f.commaList()),
  repository_storage: f.optional(f.string()),
  ...settingFields,
  ...legacyFields,
};

/** Who may create projects in a group, by the group's `project_creation_level`. */
const CREATION_LEVELS: Record<string, number> = {
  developer: AccessLevel.DEVELOPER,
  maintainer: AccessLevel.MAINTAINER,
  owner: AccessLevel.OWNER,
};

export function projectRoutes(
  database: Database,
  projects: ProjectService,
  access: AccessService,
  visibility: VisibilityFilter,
  settings: SettingsService,
  events: EventBus,
  fragments: ProjectFragments,
): Route[] {
  const userById = database.prepareRows((p) => usersQuery(database).where('id', p.id));
  const findUser = async (id: number) => (await userById.first({ id })) as User | undefined;
  /** GitLab's Project entity; reads by signed-in callers add `permissions`. */
  async function present(ctx: RequestContext, project: Project, permissions?: ProjectPermissions) {
    const { kind, ownerId } = project.namespace;
    const owner = kind === 'user' && ownerId ? ((await findUser(ownerId)) ?? null) : null;
    return projectFull(project, { extensions: projects.fieldExtensions, externalUrl: ctx.externalUrl, isAdmin: !!ctx.user?.isAdmin, owner, permissions });
  }

  /** Where a new project goes; GitLab answers any namespace the caller may not use with one validation error. */
  async function targetNamespace(ctx: RequestContext, namespaceId: number | null | undefined): Promise<Namespace> {
    const user = ctx.user!;
    const query = namespaceId
      ? database.from(NamespaceEntity).where('id', namespaceId)
      : database.from(NamespaceEntity).where({ kind: 'user', ownerId: user.id });
    const namespace = (await database.row(query)) as Namespace | undefined;
    if (namespace && (await mayCreateIn(user, namespace))) return namespace;
    throw validationFailed({ namespace: ['is not valid'] });
  }

  async function mayCreateIn(user: Principal, namespace: Namespace) {
    if (user.isAdmin) return true;
    if (namespace.kind === 'user') return namespace.ownerId === user.id;
    const group = await access.groupAccess(user, namespace);
    const needed = CREATION_LEVELS[readGroupSettings(namespace.settings).project_creation_level];
    return group.canRead && needed !== undefined && group.level >= needed;
  }

  async function checkProjectLimit(ctx: RequestContext, namespace: Namespace) {
    if (namespace.kind !== 'user' || ctx.user!.isAdmin) return;
    const { projectsLimit } = (await findUser(ctx.user!.id))!;
    const owned = await database.count(database.table(ProjectEntity).where('namespaceId', namespace.id));
    if (projectsLimit === 0) {
      throw structuredError(403, { error: ['Personal project creation is not allowed. Please contact your administrator with questions'] });
    }
    if (owned >= projectsLimit) {
      throw structuredError(403, { error: [`Your project limit is ${projectsLimit} projects! Please contact your administrator to increase it`] });
    }
  }

  /** The instance default, lowered to the group's visibility. */
  async function defaultVisibility(namespace: Namespace) {
    const level = Visibility[(await settings.get('default_project_visibility')) as keyof typeof Visibility];
    return namespace.kind === 'group' ? Math.min(level, namespace.visibilityLevel) : level;
  }

  /** Only admins may choose a storage shard; GitLab drops the param for everyone else. */
  const storageOf = (ctx: RequestContext, requested: string | null | undefined) => (ctx.user!.isAdmin ? (requested ?? undefined) : undefined);

  return [
    projectListRoute('/projects', database, access, visibility, fragments),
    defineRoute({
      method: 'GET',
      path: '/projects/:id',
      auth: 'optional',
      response: { schema: projectSchema },
      input: params({ statistics: f.optional(f.boolean()), license: f.optional(f.boolean()), with_custom_attributes: f.optional(f.boolean()) }),
      async handler(ctx) {
        const projectAccess = await access.requireProject(ctx.user, ctx.params.id!);
        return present(ctx, projectAccess.project, ctx.user ? projectAccess : undefined);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/projects',
      response: { schema: projectSchema },
      input: params(
        {
          name: f.optional(f.string()),
          path: f.optional(f.string()),
          namespace_id: f.optional(f.id()),
          initialize_with_readme: f.optional(f.boolean(), false),
          ...commonFields,
        },
        rules.atLeastOneOf('name', 'path'),
      ),
      async handler(ctx, input) {
        const namespace = await targetNamespace(ctx, input.namespace_id);
        await checkProjectLimit(ctx, namespace);
        const name = input.name ?? input.path!;
        const path = input.path ?? pathFromName(name);
        const project = await projects.create(
          namespace,
          {
            name,
            path,
            description: input.description ?? undefined,
            visibilityLevel: input.visibility ? Visibility[input.visibility] : await defaultVisibility(namespace),
            defaultBranch: input.default_branch ?? null,
            repositoryStorage: storageOf(ctx, input.repository_storage),
            topics: input.topics ?? input.tag_list ?? [],
            settings: settingsFrom(input),
          },
          ctx.user!.id,
        );
        await events.emit(coreEvents.projectCreated, { projectId: project.id, initializeWithReadme: input.initialize_with_readme, userId: ctx.user!.id });
        return reply(201, await present(ctx, project));
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/projects/:id',
      response: { schema: projectSchema },
      input: params({ name: f.optional(f.string()), path: f.optional(f.string()), ...commonFields }),
      async handler(ctx, input) {
        const { project } = await access.requireProject(ctx.user, ctx.params.id!, AccessLevel.MAINTAINER);
        const updated = await projects.update(project, {
          name: input.name ?? undefined,
          path: input.path ?? undefined,
          description: input.description ?? undefined,
          visibilityLevel: input.visibility ? Visibility[input.visibility] : undefined,
          defaultBranch: input.default_branch ?? undefined,
          repositoryStorage: storageOf(ctx, input.repository_storage),
          topics: input.topics ?? input.tag_list ?? undefined,
          settings: settingsFrom(input),
        });
        await events.emit(coreEvents.projectUpdated, { projectId: updated.id });
        return present(ctx, updated);
      },
    }),
    ...(['archive', 'unarchive'] as const).map((action) =>
      defineRoute({
        method: 'POST',
        path: `/projects/:id/${action}`,
        exemptFrom: [ARCHIVED_PROJECT_GUARD],
        response: { schema: projectSchema },
        async handler(ctx) {
          const { project } = await access.requireProject(ctx.user, ctx.params.id!, AccessLevel.MAINTAINER);
          const updated = await projects.update(project, { archived: action === 'archive' });
          await events.emit(coreEvents.projectUpdated, { projectId: updated.id });
          return reply(201, await present(ctx, updated));
        },
      }),
    ),
    defineRoute({
      method: 'DELETE',
      path: '/projects/:id',
      response: { status: 202, schema: acceptedSchema },
      async handler(ctx) {
        const { project } = await access.requireProject(ctx.user, ctx.params.id!, AccessLevel.OWNER);
        await projects.remove(project.id);
        await events.emit(coreEvents.projectDeleted, { projectId: project.id });
        return accepted();
      },
    }),
  ];
}

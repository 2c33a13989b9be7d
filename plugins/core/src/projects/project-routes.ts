import { accepted, defineRoute, f, forbidden, notFound, params, reply, rules, structuredError, type EventBus, type RequestContext, type Route } from '@forgekit/kernel';
import type { Knex } from '@forgekit/kernel/orm';
import type { AccessService } from '../access/access-service.js';
import { AccessLevel, Visibility, VISIBILITY_NAMES } from '../shared/levels.js';
import { pathFromName } from '../shared/path-rules.js';
import type { NamespaceRow, UserRow } from '../shared/rows.js';
import type { SettingsService } from '../settings/settings-service.js';
import { projectListRoute } from './project-list.js';
import { projectFull } from './project-presenter.js';
import type { ProjectService } from './project-service.js';
import { ACCESS_LEVEL_SETTINGS, PROJECT_SETTING_DEFAULTS, type ProjectSettings } from './project-settings.js';

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

export function projectRoutes(db: Knex, projects: ProjectService, access: AccessService, settings: SettingsService, events: EventBus): Route[] {
  async function ownerOf(namespaceKind: string, ownerId: number | null) {
    if (namespaceKind !== 'user' || !ownerId) return null;
    return (await db<UserRow>('users').where('id', ownerId).first()) ?? null;
  }

  async function targetNamespace(ctx: RequestContext, namespaceId: number | null | undefined): Promise<NamespaceRow> {
    const user = ctx.user!;
    if (!namespaceId) {
      const own = await db<NamespaceRow>('namespaces').where({ kind: 'user', owner_id: user.id }).first();
      if (!own) throw notFound('Namespace');
      return own;
    }
    const namespace = await db<NamespaceRow>('namespaces').where('id', namespaceId).first();
    if (!namespace) throw notFound('Namespace');
    if (namespace.kind === 'user') {
      if (namespace.owner_id !== user.id && !user.isAdmin) throw notFound('Namespace');
      return namespace;
    }
    const group = await access.groupAccess(user, namespace);
    if (!group.canRead) throw notFound('Namespace');
    if (group.level < AccessLevel.DEVELOPER) throw forbidden();
    return namespace;
  }

  async function checkProjectLimit(ctx: RequestContext, namespace: NamespaceRow) {
    if (namespace.kind !== 'user' || ctx.user!.isAdmin) return;
    const user = (await db<UserRow>('users').where('id', ctx.user!.id).first())!;
    const [counted] = await db('projects').where('namespace_id', namespace.id).count({ n: '*' });
    const owned = Number(counted!.n);
    if (user.projects_limit === 0) {
      throw structuredError(403, { error: ['Personal project creation is not allowed. Please contact your administrator with questions'] });
    }
    if (owned >= user.projects_limit) {
      throw structuredError(403, { error: [`Your project limit is ${user.projects_limit} projects! Please contact your administrator to increase it`] });
    }
  }

  return [
    projectListRoute('/projects', db, access, projects),
    defineRoute({
      method: 'GET',
      path: '/projects/:id',
      auth: 'optional',
      input: params({ statistics: f.optional(f.boolean()), license: f.optional(f.boolean()), with_custom_attributes: f.optional(f.boolean()) }),
      async handler(ctx) {
        const projectAccess = await access.requireProject(ctx.user, ctx.params.id!);
        const { project } = projectAccess;
        const owner = project.ns_kind === 'user' ? await ownerOf(project.ns_kind, project.ns_owner_id) : null;
        return projectFull(project, { extensions: projects.fieldExtensions, externalUrl: ctx.externalUrl, isAdmin: !!ctx.user?.isAdmin, owner, access: projectAccess });
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/projects',
      input: params(
        {
          name: f.optional(f.string()),
          path: f.optional(f.string()),
          namespace_id: f.optional(f.integer()),
          initialize_with_readme: f.optional(f.boolean(), false),
          ...commonFields,
        },
        rules.atLeastOneOf('name', 'path'),
      ),
      async handler(ctx, input) {
        const namespace = await targetNamespace(ctx, input.namespace_id);
        await checkProjectLimit(ctx, namespace);
        if (input.repository_storage && !ctx.user!.isAdmin) throw forbidden();
        const name = input.name ?? input.path!;
        const path = input.path ?? pathFromName(name);
        const defaultVisibility = (await settings.get('default_project_visibility')) as keyof typeof Visibility;
        const project = await projects.create(
          namespace,
          {
            name,
            path,
            description: input.description ?? undefined,
            visibilityLevel: Visibility[input.visibility ?? defaultVisibility],
            defaultBranch: input.default_branch ?? null,
            repositoryStorage: input.repository_storage ?? undefined,
            topics: input.topics ?? input.tag_list ?? [],
            settings: settingsFrom(input),
          },
          ctx.user!.id,
        );
        await events.emit('project.created', { projectId: project.id, initializeWithReadme: input.initialize_with_readme, userId: ctx.user!.id });
        const projectAccess = await access.projectAccess(ctx.user, project);
        const owner = await ownerOf(project.ns_kind, project.ns_owner_id);
        return reply(201, projectFull(project, { extensions: projects.fieldExtensions, externalUrl: ctx.externalUrl, isAdmin: ctx.user!.isAdmin, owner, access: projectAccess }));
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/projects/:id',
      input: params({ name: f.optional(f.string()), path: f.optional(f.string()), ...commonFields }),
      async handler(ctx, input) {
        const projectAccess = await access.requireProject(ctx.user, ctx.params.id!, AccessLevel.MAINTAINER);
        if (input.repository_storage && !ctx.user!.isAdmin) throw forbidden();
        const updated = await projects.update(projectAccess.project, {
          name: input.name ?? undefined,
          path: input.path ?? undefined,
          description: input.description ?? undefined,
          visibilityLevel: input.visibility ? Visibility[input.visibility] : undefined,
          defaultBranch: input.default_branch ?? undefined,
          repositoryStorage: input.repository_storage ?? undefined,
          topics: input.topics ?? input.tag_list ?? undefined,
          settings: settingsFrom(input),
        });
        await events.emit('project.updated', { projectId: updated.id });
        const owner = await ownerOf(updated.ns_kind, updated.ns_owner_id);
        return projectFull(updated, { extensions: projects.fieldExtensions, externalUrl: ctx.externalUrl, isAdmin: ctx.user!.isAdmin, owner, access: projectAccess });
      },
    }),
    ...(['archive', 'unarchive'] as const).map((action) =>
      defineRoute({
        method: 'POST',
        path: `/projects/:id/${action}`,
        async handler(ctx) {
          const projectAccess = await access.requireProject(ctx.user, ctx.params.id!, AccessLevel.MAINTAINER);
          const updated = await projects.update(projectAccess.project, { archived: action === 'archive' });
          const owner = await ownerOf(updated.ns_kind, updated.ns_owner_id);
          return reply(201, projectFull(updated, { extensions: projects.fieldExtensions, externalUrl: ctx.externalUrl, isAdmin: ctx.user!.isAdmin, owner, access: projectAccess }));
        },
      }),
    ),
    defineRoute({
      method: 'DELETE',
      path: '/projects/:id',
      async handler(ctx) {
        const { project } = await access.requireProject(ctx.user, ctx.params.id!, AccessLevel.OWNER);
        await projects.remove(project.id);
        await events.emit('project.deleted', { projectId: project.id });
        return accepted();
      },
    }),
  ];
}

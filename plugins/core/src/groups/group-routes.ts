import { accepted, defineRoute, f, forbidden, page, params, reply, totalFor, type RequestContext, type Route, acceptedSchema } from '@forgekit/kernel';
import type { Database, EventBus } from '@forgekit/kernel';
import type { Conditions } from '@forgekit/kernel/orm';
import type { VisibilityFilter } from '../access/access-service.js';
import type { AccessService, GroupService, Namespace, ProjectService, SettingsService } from '../contracts.js';
import { NamespaceEntity } from '../entities/namespace.js';
import { UserEntity } from '../entities/user.js';
import { asProjects, projectsWithNamespace } from '../projects/project-query.js';
import { projectBasic } from '../projects/project-presenter.js';
import { AccessLevel, Visibility, VISIBILITY_NAMES } from '../shared/levels.js';
import { projectListRoute } from '../projects/project-list.js';
import { readGroupSettings, type GroupSettings } from './group-settings.js';
import { presentGroup } from './group-presenter.js';
import { groupDetailSchema, groupSchema } from './group-schemas.js';
import { removeGroupAndNotify } from './remove-group.js';
import { coreEvents } from '../events.js';
import type { ProjectFragments } from '../projects/project-fragments.js';

const settingFields = {
  description: f.optional(f.string()),
  visibility: f.optional(f.values(VISIBILITY_NAMES)),
  share_with_group_lock: f.optional(f.boolean()),
  require_two_factor_authentication: f.optional(f.boolean()),
  two_factor_grace_period: f.optional(f.integer()),
  project_creation_level: f.optional(f.values(['noone', 'owner', 'maintainer', 'developer', 'administrator'])),
  auto_devops_enabled: f.optional(f.boolean()),
  subgroup_creation_level: f.optional(f.values(['owner', 'maintainer'])),
  emails_enabled: f.optional(f.boolean()),
  mentions_disabled: f.optional(f.boolean()),
  lfs_enabled: f.optional(f.boolean()),
  default_branch: f.optional(f.string()),
  request_access_enabled: f.optional(f.boolean()),
  shared_runners_setting: f.optional(f.values(['enabled', 'disabled_and_overridable', 'disabled_and_unoverridable', 'disabled_with_override'])),
  max_artifacts_size: f.optional(f.integer()),
  default_branch_protection: f.optional(f.values([0, 1, 2, 3, 4], f.integer())),
  prevent_sharing_groups_outside_hierarchy: f.optional(f.boolean()),
};

const SETTING_KEYS = Object.keys(settingFields).filter((key) => key !== 'description' && key !== 'visibility') as (keyof GroupSettings)[];

function settingsFrom(input: Record<string, unknown>): Partial<GroupSettings> {
  const settings: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) if (input[key] !== undefined) settings[key] = input[key];
  return settings as Partial<GroupSettings>;
}

export function groupRoutes(
  database: Database,
  groups: GroupService,
  projects: ProjectService,
  access: AccessService,
  visibility: VisibilityFilter,
  settings: SettingsService,
  events: EventBus,
  fragments: ProjectFragments,
): Route[] {
  /** The instance default, lowered to the parent's visibility for a subgroup. */
  async function defaultVisibility(parent: Namespace | null) {
    const level = Visibility[(await settings.get('default_group_visibility')) as keyof typeof Visibility];
    return parent ? Math.min(level, parent.visibilityLevel) : level;
  }

  const list = async (ctx: RequestContext, input: Record<string, any>, base: (q: Conditions<{ n: typeof NamespaceEntity }, 'n'>) => void) => {
    const query = database
      .from(NamespaceEntity, 'n')
      .where('n.kind', 'group')
      .where((q) => base(q));
    const user = ctx.user;
    if (input.owned) visibility.groups(query, user, { membershipOnly: true, minLevel: AccessLevel.OWNER });
    else if (input.min_access_level) visibility.groups(query, user, { membershipOnly: true, minLevel: input.min_access_level });
    else if (user && !user.isAdmin && !input.all_available) visibility.groups(query, user, { membershipOnly: true });
    else visibility.groups(query, user);
    if (input.search) query.whereContains(['n.name', 'n.path'], String(input.search));
    if (input.visibility) query.where('n.visibilityLevel', Visibility[input.visibility as keyof typeof Visibility]);
    if (input.skip_groups?.length) query.whereNotIn('n.id', input.skip_groups);
    const order = input.order_by === 'path' ? 'n.path' : input.order_by === 'id' ? 'n.id' : 'n.name';
    const rows = await database.rows(query.clone().orderBy(order, input.sort).orderBy('n.id', input.sort).limit(ctx.page.perPage).offset(ctx.page.offset));
    const total = await totalFor(ctx.page, rows.length, () => database.count(query));
    return page(
      rows.map((row) => presentGroup(row as Namespace, ctx.externalUrl)),
      total,
    );
  };

  const listFilters = {
    search: f.optional(f.string()),
    owned: f.optional(f.boolean(), false),
    min_access_level: f.optional(f.values([10, 15, 20, 30, 40, 50], f.integer())),
    all_available: f.optional(f.boolean()),
    visibility: f.optional(f.values(VISIBILITY_NAMES)),
    skip_groups: f.optional(f.array(f.id())),
    order_by: f.optional(f.values(['name', 'path', 'id', 'similarity']), 'name'),
    sort: f.optional(f.values(['asc', 'desc']), 'asc'),
    statistics: f.optional(f.boolean()),
  };

  return [
    defineRoute({
      method: 'GET',
      path: '/groups',
      auth: 'optional',
      paginated: true,
      response: { schema: groupSchema },
      input: params({ ...listFilters, top_level_only: f.optional(f.boolean()) }),
      handler: (ctx, input) => list(ctx, input, (q) => (input.top_level_only ? q.whereNull('n.parentId') : q)),
    }),
    defineRoute({
      method: 'GET',
      path: '/groups/:id/subgroups',
      auth: 'optional',
      paginated: true,
      response: { schema: groupSchema },
      input: params(listFilters),
      async handler(ctx, input) {
        const { group } = await access.requireGroup(ctx.user, ctx.params.id!);
        return list(ctx, { ...input, all_available: true }, (q) => q.where('n.parentId', group.id));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/groups/:id/descendant_groups',
      auth: 'optional',
      paginated: true,
      response: { schema: groupSchema },
      input: params(listFilters),
      async handler(ctx, input) {
        const { group } = await access.requireGroup(ctx.user, ctx.params.id!);
        return list(ctx, { ...input, all_available: true }, (q) => q.whereStartsWith('n.traversalPath', group.traversalPath).whereNot('n.id', group.id));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/groups/:id',
      auth: 'optional',
      response: { schema: groupDetailSchema },
      input: params({ with_projects: f.optional(f.boolean(), true) }),
      async handler(ctx, input) {
        const { group } = await access.requireGroup(ctx.user, ctx.params.id!);
        const body: Record<string, unknown> = { ...presentGroup(group, ctx.externalUrl), shared_with_groups: [] };
        if (input.with_projects) {
          const query = visibility.projects(projectsWithNamespace(database).where('p.namespaceId', group.id), ctx.user).orderBy('p.id', 'asc').limit(100);
          const rows = asProjects(await database.rows(query));
          body.projects = rows.map((row) => projectBasic(row, ctx.externalUrl, projects.fieldExtensions));
          body.shared_projects = [];
        }
        return body;
      },
    }),
    projectListRoute(
      '/groups/:id/projects',
      database,
      access,
      visibility,
      fragments,
      async (ctx, input) => {
        const { group } = await access.requireGroup(ctx.user, ctx.params.id!);
        return (q) => (input.include_subgroups ? q.whereStartsWith('n.traversalPath', group.traversalPath) : q.where('p.namespaceId', group.id));
      },
      { include_subgroups: f.optional(f.boolean(), false) },
    ),
    defineRoute({
      method: 'POST',
      path: '/groups',
      response: { schema: groupSchema },
      input: params({ name: f.string(), path: f.string(), parent_id: f.optional(f.id()), ...settingFields }),
      async handler(ctx, input) {
        const user = ctx.user!;
        let parentGroup: Namespace | null = null;
        if (input.parent_id) {
          const parent = await access.requireGroup(user, String(input.parent_id));
          const { subgroup_creation_level } = readGroupSettings(parent.group.settings);
          const needed = subgroup_creation_level === 'owner' ? AccessLevel.OWNER : AccessLevel.MAINTAINER;
          if (parent.level < needed) throw forbidden();
          parentGroup = parent.group;
        } else if (!user.isAdmin) {
          const row = await database.row(database.table(UserEntity).select('canCreateGroup').where('id', user.id));
          if (!row?.canCreateGroup) throw forbidden();
        }
        const group = await groups.create(
          {
            name: input.name,
            path: input.path,
            parentId: input.parent_id ?? null,
            description: input.description ?? undefined,
            visibilityLevel: input.visibility ? Visibility[input.visibility] : await defaultVisibility(parentGroup),
            settings: settingsFrom(input),
          },
          user.id,
        );
        await events.emit(coreEvents.groupCreated, { groupId: group.id });
        return reply(201, presentGroup(group, ctx.externalUrl));
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/groups/:id',
      response: { schema: groupSchema },
      input: params({ name: f.optional(f.string()), path: f.optional(f.string()), ...settingFields }),
      async handler(ctx, input) {
        const { group } = await access.requireGroup(ctx.user, ctx.params.id!, AccessLevel.OWNER);
        const updated = await groups.update(group, {
          name: input.name ?? undefined,
          path: input.path ?? undefined,
          description: input.description ?? undefined,
          visibilityLevel: input.visibility ? Visibility[input.visibility] : undefined,
          settings: settingsFrom(input),
        });
        await events.emit(coreEvents.groupUpdated, { groupId: group.id });
        return presentGroup(updated, ctx.externalUrl);
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/groups/:id',
      response: { status: 202, schema: acceptedSchema },
      async handler(ctx) {
        const { group } = await access.requireGroup(ctx.user, ctx.params.id!, AccessLevel.OWNER);
        await removeGroupAndNotify(groups, events, group);
        return accepted();
      },
    }),
  ];
}

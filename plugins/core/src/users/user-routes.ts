import {
  ApiError,
  apiError,
  conflict,
  defineRoute,
  f,
  forbidden,
  keysetPage,
  noContent,
  notFound,
  page,
  params,
  reply,
  rules,
  totalFor,
  type Database,
  type EventBus,
  type RequestContext,
  type Route,
} from '@forgekit/kernel';
import { containsText } from '@forgekit/kernel/orm';
import { User, type UserRow } from '../entities/user.js';
import type { GroupService } from '../groups/group-service.js';
import { removeGroupAndNotify } from '../groups/remove-group.js';
import type { UserService } from './user-service.js';
import { afterCursor, decodeCursor, encodeCursor, keysetOrder } from './user-keyset.js';
import { userBasic, userDetail, userPublic, userWithAdmin } from './user-presenter.js';
import { coreEvents } from '../events.js';

const profileFields = {
  bio: f.optional(f.string()),
  location: f.optional(f.string()),
  public_email: f.optional(f.string()),
  website_url: f.optional(f.string()),
  organization: f.optional(f.string()),
  job_title: f.optional(f.string()),
  pronouns: f.optional(f.string()),
  private_profile: f.optional(f.boolean()),
  note: f.optional(f.string()),
  admin: f.optional(f.boolean()),
  external: f.optional(f.boolean()),
  can_create_group: f.optional(f.boolean()),
  projects_limit: f.optional(f.integer()),
};

type ProfileInput = { [K in keyof typeof profileFields]?: any };

const profileOf = (input: ProfileInput) => ({
  bio: input.bio ?? undefined,
  location: input.location ?? undefined,
  public_email: input.public_email,
  website_url: input.website_url ?? undefined,
  organization: input.organization ?? undefined,
  job_title: input.job_title ?? undefined,
  pronouns: input.pronouns,
});

export function userRoutes(database: Database, users: UserService, groups: GroupService, events: EventBus): Route[] {
  /** The bodies after the plugins' field extensions (followers, say) had their say. */
  async function extended<T extends Record<string, unknown>>(ctx: RequestContext, rows: readonly UserRow[], bodies: T[]): Promise<T[]> {
    await users.applyFieldExtensions(
      rows.map((user, i) => ({ user, body: bodies[i]! })),
      ctx.user,
    );
    return bodies;
  }
  const extendedOne = async <T extends Record<string, unknown>>(ctx: RequestContext, user: UserRow, body: T) => (await extended(ctx, [user], [body]))[0]!;

  async function adminBody(ctx: RequestContext, user: UserRow) {
    const creator = user.created_by_id ? ((await users.findById(user.created_by_id)) ?? null) : null;
    return userWithAdmin(user, ctx.externalUrl, creator);
  }
  const adminView = async (ctx: RequestContext, user: UserRow) => extendedOne(ctx, user, await adminBody(ctx, user));

  async function findUserOr404(id: number) {
    const user = await users.findById(id);
    if (!user) throw notFound('User');
    return user;
  }

  const idParam = { id: f.id() };

  return [
    defineRoute({
      method: 'GET',
      path: '/user',
      scopes: ['read_user'],
      async handler(ctx) {
        const user = await findUserOr404(ctx.user!.id);
        return ctx.user!.isAdmin ? adminView(ctx, user) : extendedOne(ctx, user, userPublic(user, ctx.externalUrl));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/users',
      auth: 'optional',
      scopes: ['read_user'],
      paginated: true,
      input: params({
        username: f.optional(f.string()),
        search: f.optional(f.string()),
        active: f.optional(f.boolean()),
        blocked: f.optional(f.boolean()),
        external: f.optional(f.boolean()),
        admins: f.optional(f.boolean()),
        order_by: f.optional(f.values(['id', 'name', 'username', 'created_at', 'updated_at']), 'id'),
        sort: f.optional(f.values(['asc', 'desc']), 'desc'),
        pagination: f.optional(f.values(['offset', 'keyset'])),
        cursor: f.optional(f.string()),
      }),
      async handler(ctx, input) {
        if (!ctx.user && !input.username) throw forbidden('Not authorized to access /api/v4/users');
        const order = input.pagination === 'keyset' ? keysetOrder(input.order_by!) : null;
        const isAdmin = !!ctx.user?.isAdmin;
        const query = database.legacy.from(User).where((q) => {
          if (input.username) q.whereRaw('lower(username) = ?', [input.username.toLowerCase()]);
          if (input.search) {
            const search = input.search;
            q.where((s) =>
              s
                .where(containsText(s, 'username', search))
                .orWhere(containsText(s, 'name', search))
                .orWhereRaw('lower(email) = ?', [search.toLowerCase()]),
            );
          }
          if (input.active) q.where('state', 'active');
          if (input.blocked) q.where('state', 'blocked');
          if (isAdmin && input.external) q.where('external', true);
          if (isAdmin && input.admins) q.where('admin', true);
        });
        const ordered = query.clone().orderBy(input.order_by!, input.sort!).orderBy('id', input.sort!);
        const present = async (rows: UserRow[]): Promise<Record<string, unknown>[]> =>
          isAdmin ? extended(ctx, rows, await Promise.all(rows.map((row) => adminBody(ctx, row)))) : rows.map((row) => userBasic(row, ctx.externalUrl));
        if (order) {
          // One row more than the page tells whether a next page exists.
          if (input.cursor) afterCursor(ordered, order, input.sort!, decodeCursor(input.cursor));
          const fetched = await database.legacy.rows(User, ordered.limit(ctx.page.perPage + 1));
          const rows = fetched.slice(0, ctx.page.perPage);
          const next = fetched.length > rows.length ? { cursor: encodeCursor(rows[rows.length - 1]!, order) } : null;
          return keysetPage(await present(rows), next);
        }
        const rows = await database.legacy.rows(User, ordered.limit(ctx.page.perPage).offset(ctx.page.offset));
        const total = await totalFor(ctx.page, rows.length, () => database.legacy.count(query));
        return page(await present(rows), total);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/users/:id',
      auth: 'optional',
      scopes: ['read_user'],
      input: params(idParam),
      async handler(ctx, input) {
        const user = await findUserOr404(input.id);
        if (ctx.user?.isAdmin) return adminView(ctx, user);
        return extendedOne(ctx, user, userDetail(user, ctx.externalUrl, ctx.user));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/users',
      auth: 'admin',
      input: params(
        {
          email: f.string(),
          name: f.string(),
          username: f.string(),
          password: f.optional(f.string()),
          reset_password: f.optional(f.boolean()),
          force_random_password: f.optional(f.boolean()),
          skip_confirmation: f.optional(f.boolean()),
          ...profileFields,
        },
        rules.atLeastOneOf('password', 'reset_password', 'force_random_password'),
      ),
      async handler(ctx, input) {
        const user = await users.create({
          username: input.username,
          name: input.name,
          email: input.email,
          password: input.password ?? null,
          admin: input.admin ?? false,
          external: input.external ?? false,
          canCreateGroup: input.can_create_group ?? undefined,
          projectsLimit: input.projects_limit ?? undefined,
          note: input.note ?? null,
          privateProfile: input.private_profile ?? undefined,
          createdById: ctx.user!.id,
          confirmed: input.skip_confirmation ?? true,
          profile: profileOf(input),
        });
        return reply(201, await adminView(ctx, user));
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/users/:id',
      auth: 'admin',
      input: params({
        ...idParam,
        email: f.optional(f.string()),
        name: f.optional(f.string()),
        username: f.optional(f.string()),
        password: f.optional(f.string()),
        ...profileFields,
      }),
      async handler(ctx, input) {
        await findUserOr404(input.id);
        const user = await users.update(input.id, {
          username: input.username ?? undefined,
          name: input.name ?? undefined,
          email: input.email ?? undefined,
          password: input.password ?? undefined,
          admin: input.admin ?? undefined,
          external: input.external ?? undefined,
          canCreateGroup: input.can_create_group ?? undefined,
          projectsLimit: input.projects_limit ?? undefined,
          note: input.note,
          privateProfile: input.private_profile ?? undefined,
          profile: profileOf(input),
        });
        return adminView(ctx, user);
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/users/:id',
      auth: 'admin',
      input: params({ ...idParam, hard_delete: f.optional(f.boolean(), false) }),
      async handler(_ctx, input) {
        await findUserOr404(input.id);
        const soleOwned = await users.soleOwnedGroups(input.id);
        if (soleOwned.length > 0 && !input.hard_delete) throw conflict('User cannot be removed while is the sole-owner of a group');
        // A hard delete also removes the groups only this user owns.
        for (const groupId of soleOwned) {
          const group = await groups.findById(groupId);
          if (group) await removeGroupAndNotify(groups, events, group);
        }
        const { projectIds } = await users.remove(input.id);
        for (const projectId of projectIds) await events.emit(coreEvents.projectDeleted, { projectId });
        await events.emit(coreEvents.userDeleted, { userId: input.id });
        return noContent();
      },
    }),
    ...stateRoutes(users, findUserOr404),
  ];
}

/** What a state change does: the next state, `null` for "already there" (201 `null`), or a refusal. */
type Transition = string | null | ApiError;

/** Block, unblock, deactivate and activate: 201 `true`, or GitLab's refusals. */
function stateRoutes(users: UserService, find: (id: number) => Promise<UserRow>): Route[] {
  const transition = (action: string, decide: (user: UserRow, ctx: RequestContext) => Transition) =>
    defineRoute({
      method: 'POST',
      path: `/users/:id/${action}`,
      auth: 'admin',
      input: params({ id: f.id() }),
      async handler(ctx, input) {
        const user = await find(input.id);
        const next = decide(user, ctx);
        if (next instanceof ApiError) throw next;
        if (next === null) return reply(201, null);
        if (next !== user.state) await users.update(user.id, { state: next });
        return reply(201, true);
      },
    });
  return [
    transition('block', (user, ctx) => {
      if (user.id === ctx.user!.id) return forbidden('The API initiating user cannot be blocked by the API');
      if (user.bot) return apiError(403, 'An internal user cannot be blocked');
      return user.state === 'blocked' ? null : 'blocked';
    }),
    transition('unblock', (user) => (user.state === 'deactivated' ? forbidden('Deactivated users cannot be unblocked by the API') : 'active')),
    transition('deactivate', (user) => {
      if (user.state === 'deactivated') return null;
      if (user.state === 'blocked') return forbidden('A blocked user cannot be deactivated by the API');
      if (user.bot) return forbidden('An internal user cannot be deactivated by the API');
      return 'deactivated';
    }),
    transition('activate', (user) => (user.state === 'blocked' ? forbidden('A blocked user must be unblocked to be activated') : 'active')),
  ];
}

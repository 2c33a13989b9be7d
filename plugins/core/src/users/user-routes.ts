import {
  sourceKey,
  versionKey,
  type FragmentCache,
  ApiError,
  apiError,
  conflict,
  defineRoute,
  f,
  forbidden,
  keptPages,
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
  validationFailed,
} from '@forgekit/kernel';
import type { Direction } from '@forgekit/kernel/orm';
import type { User, UserDeletion, UserProfile, UserService } from '../contracts.js';
import { coreEvents } from '../events.js';
import { isGhostUser } from './ghost-user.js';
import { usersQuery } from './user-query.js';
import { afterCursor, decodeCursor, encodeCursor, keysetOrder } from './user-keyset.js';
import { userBasic, userDetail, userPublic, userWithAdmin } from './user-presenter.js';
import { currentUserSchema, userBasicSchema, userDetailSchema, userStateChangeSchema, userWithAdminSchema } from './user-schemas.js';

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

const profileOf = (input: ProfileInput): Partial<UserProfile> => ({
  bio: input.bio ?? undefined,
  location: input.location ?? undefined,
  publicEmail: input.public_email,
  websiteUrl: input.website_url ?? undefined,
  organization: input.organization ?? undefined,
  jobTitle: input.job_title ?? undefined,
  pronouns: input.pronouns,
});

/** An external identity (`provider` and `extern_uid` together), as GitLab's user routes take it. */
const identityFields = {
  provider: f.optional(f.string()),
  extern_uid: f.optional(f.string()),
  group_id_for_saml: f.optional(f.id()),
};

/** `order_by` values and the properties they order by. */
const USER_ORDERS = { id: 'id', name: 'name', username: 'username', created_at: 'createdAt', updated_at: 'updatedAt' } as const;

/** A page of the user list: its items, and its total (offset pages) or next cursor (keyset pages). */
interface UsersPage {
  items: readonly unknown[];
  total: number | null;
  next: { cursor: string } | null;
}

export function userRoutes(database: Database, users: UserService, deletion: UserDeletion, events: EventBus, presented: FragmentCache): Route[] {
  /** A user's `UserBasic` in lists, from the presented cache by the row's version (it reads the row alone). */
  const basicJson = (row: User, externalUrl: string) =>
    presented.enabled
      ? presented
          .fragment(versionKey('user-basic', externalUrl, sourceKey('User', row.id, row.lockVersion)), () => ({ body: userBasic(row, externalUrl) }))
          .json()
      : userBasic(row, externalUrl);
  /** Pages seen by users who are not administrators, by filters, URL and page: such a page shows nothing of its caller. */
  const pages = keptPages<UsersPage>();

  /** The identity a request gives, checked by the plugin that handles its provider before anything is written. */
  async function checkedIdentity(input: { provider?: string | null; extern_uid?: string | null; group_id_for_saml?: number | null }, userId: number | null) {
    if (!input.provider || !input.extern_uid) return null;
    const handler = users.identityHandler(input.provider);
    if (!handler) throw validationFailed({ identities: [`provider ${input.provider} is not supported`] });
    const identity = { provider: input.provider, externUid: input.extern_uid, groupIdForSaml: input.group_id_for_saml ?? null };
    await handler.check(identity, userId);
    return { handler, input: identity };
  }

  /** The bodies after the plugins' field extensions (followers, say) had their say. */
  async function extended<T extends Record<string, unknown>>(ctx: RequestContext, rows: readonly User[], bodies: T[]): Promise<T[]> {
    await users.applyFieldExtensions(
      rows.map((user, i) => ({ user, body: bodies[i]! })),
      ctx.user,
    );
    return bodies;
  }
  const extendedOne = async <T extends Record<string, unknown>>(ctx: RequestContext, user: User, body: T) => (await extended(ctx, [user], [body]))[0]!;

  async function adminBody(ctx: RequestContext, user: User) {
    const creator = user.createdById ? ((await users.findById(user.createdById)) ?? null) : null;
    return userWithAdmin(user, ctx.externalUrl, creator);
  }
  const adminView = async (ctx: RequestContext, user: User) => extendedOne(ctx, user, await adminBody(ctx, user));

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
      response: { schema: currentUserSchema },
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
      response: { schema: userBasicSchema },
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
        const query = usersQuery(database).where((q) => {
          if (input.username) q.whereIgnoringCase('username', input.username);
          if (input.search) {
            const search = input.search;
            q.where((s) => s.whereContains(['username', 'name'], search).orWhereIgnoringCase('email', search));
          }
          if (input.active) q.where('state', 'active');
          if (input.blocked) q.where('state', 'blocked');
          if (isAdmin && input.external) q.where('external', true);
          if (isAdmin && input.admins) q.where('admin', true);
        });
        const sort = input.sort as Direction;
        const ordered = query
          .clone()
          .orderBy(USER_ORDERS[input.order_by as keyof typeof USER_ORDERS], sort)
          .orderBy('id', sort);
        const basic = (rows: User[]) => rows.map((row) => basicJson(row, ctx.externalUrl));
        // An administrator's view runs other plugins' extensions over each user, and is presented afresh.
        const admin = async (rows: User[]) => extended(ctx, rows, await Promise.all(rows.map((row) => adminBody(ctx, row))));
        async function read(present: (rows: User[]) => unknown[] | Promise<unknown[]>): Promise<UsersPage> {
          if (order) {
            // One row more than the page tells whether a next page exists.
            if (input.cursor) afterCursor(ordered, order, input.sort!, decodeCursor(input.cursor));
            const fetched = (await database.rows(ordered.limit(ctx.page.perPage + 1))) as User[];
            const rows = fetched.slice(0, ctx.page.perPage);
            const next = fetched.length > rows.length ? { cursor: encodeCursor(rows[rows.length - 1]!, order) } : null;
            return { items: await present(rows), total: null, next };
          }
          const rows = (await database.rows(ordered.limit(ctx.page.perPage).offset(ctx.page.offset))) as User[];
          return { items: await present(rows), total: await totalFor(ctx.page, rows.length, () => database.count(query)), next: null };
        }
        const { items, total, next } =
          isAdmin || !presented.enabled
            ? await read(isAdmin ? admin : basic)
            : await pages(`${ctx.externalUrl}|${ctx.page.perPage}|${ctx.page.offset}|${JSON.stringify(input)}`, ctx.user, () => read(basic));
        return order ? keysetPage(items, next) : page(items, total);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/users/:id',
      auth: 'optional',
      scopes: ['read_user'],
      input: params(idParam),
      response: { schema: userDetailSchema },
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
      response: { schema: userWithAdminSchema, errors: [409] },
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
          ...identityFields,
        },
        rules.atLeastOneOf('password', 'reset_password', 'force_random_password'),
        rules.allOrNoneOf('extern_uid', 'provider'),
      ),
      async handler(ctx, input) {
        const identity = await checkedIdentity(input, null);
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
        if (identity) await identity.handler.record(user, identity.input);
        await events.emit(coreEvents.userCreated, { userId: user.id });
        if (user.confirmedAt) await events.emit(coreEvents.userEmailConfirmed, { userId: user.id, email: user.email });
        return reply(201, await adminView(ctx, user));
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/users/:id',
      auth: 'admin',
      response: { schema: userWithAdminSchema, errors: [409] },
      input: params(
        {
          ...idParam,
          email: f.optional(f.string()),
          name: f.optional(f.string()),
          username: f.optional(f.string()),
          password: f.optional(f.string()),
          ...profileFields,
          ...identityFields,
        },
        rules.allOrNoneOf('extern_uid', 'provider'),
      ),
      async handler(ctx, input) {
        const before = await findUserOr404(input.id);
        const identity = await checkedIdentity(input, input.id);
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
        // An administrator's change of email needs no confirmation here.
        if (user.email.toLowerCase() !== before.email.toLowerCase()) await events.emit(coreEvents.userEmailConfirmed, { userId: user.id, email: user.email });
        if (identity) await identity.handler.record(user, identity.input);
        return adminView(ctx, user);
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/users/:id',
      auth: 'admin',
      response: { status: 204, errors: [409] },
      input: params({ ...idParam, hard_delete: f.optional(f.boolean(), false) }),
      async handler(_ctx, input) {
        // GitLab's policy keeps the Ghost User: nobody may destroy it.
        if (isGhostUser(await findUserOr404(input.id))) throw forbidden();
        const outcome = await deletion.remove(input.id, { hardDelete: input.hard_delete === true });
        if (outcome === 'sole-owner') throw conflict('User cannot be removed while is the sole-owner of a group');
        return noContent();
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/users/:id/identities/:provider',
      auth: 'admin',
      response: { status: 204 },
      input: params(idParam),
      async handler(ctx, input) {
        await findUserOr404(input.id);
        const handler = users.identityHandler(ctx.params.provider);
        if (!handler || !(await handler.remove(input.id))) throw notFound('Identity');
        return noContent();
      },
    }),
    ...stateRoutes(users, findUserOr404),
  ];
}

/** What a state change does: the next state, `null` for "already there" (201 `null`), or a refusal. */
type Transition = string | null | ApiError;

/** Block, unblock, deactivate and activate: 201 `true`, or GitLab's refusals. */
function stateRoutes(users: UserService, find: (id: number) => Promise<User>): Route[] {
  const transition = (action: string, decide: (user: User, ctx: RequestContext) => Transition) =>
    defineRoute({
      method: 'POST',
      path: `/users/:id/${action}`,
      auth: 'admin',
      response: { schema: userStateChangeSchema },
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

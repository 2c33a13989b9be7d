/** Project and group members, direct and inherited (`/members/all`). */
import {
  conflict,
  defineRoute,
  f,
  forbidden,
  noContent,
  notFound,
  page,
  params,
  recordNotFound,
  reply,
  rules,
  totalFor,
  validationFailed,
  type Database,
  type RequestContext,
  type Route,
} from '@forgekit/kernel';
import { ARCHIVED_PROJECT_GUARD } from '../access/archived-project-guard.js';
import { containsText, recordId, unlessTaken, type Knex, type Rows } from '@forgekit/kernel/orm';
import type { AccessService } from '../access/access-service.js';
import { Member, type MemberRow } from '../entities/member.js';
import { User, type UserRow } from '../entities/user.js';
import { AccessLevel, MEMBER_LEVELS, today } from '../shared/levels.js';
import { traversalIds } from '../shared/traversal.js';
import { userBasic } from '../users/user-presenter.js';

type SourceKind = 'projects' | 'groups';

interface Source {
  type: 'Project' | 'Namespace';
  id: number;
  /** Sources whose members are inherited here, nearest last (ancestor groups). */
  ancestors: number[];
  level: number;
  isAdmin: boolean;
  kind: SourceKind;
}

/** The member's user, read beside the membership: what `userBasic` shows. */
const USER_COLUMNS = ['u.id as u_id', 'u.username as u_username', 'u.name as u_name', 'u.state as u_state', 'u.public_email as u_public_email'];
const WITH_USER = { joined: { user: { entity: User, prefix: 'u_' } } } as const;

type MemberWithUser = Rows<typeof Member, (typeof WITH_USER)['joined']>;

/** GitLab's member `query`: the username or the name contains it. */
const whereUserMatches = (query: Knex.QueryBuilder, text: string) =>
  query.where((s) => s.where(containsText(s, 'u.username', text)).orWhere(containsText(s, 'u.name', text)));

/** User ids a record can have; the others match nothing. */
const storedIds = (ids: readonly number[]) => ids.filter((id) => recordId(id) !== null);

function presentMember(row: MemberWithUser, externalUrl: string, creators: Map<number, UserRow>) {
  const creator = row.created_by_id ? creators.get(row.created_by_id) : undefined;
  const body: Record<string, unknown> = { ...userBasic(row.user, externalUrl), access_level: row.access_level, created_at: row.created_at.toISOString() };
  // GitLab leaves `created_by` out, rather than null, when nobody is recorded.
  if (creator) body.created_by = userBasic(creator, externalUrl);
  body.expires_at = row.expires_at;
  body.membership_state = 'active';
  return body;
}

export function memberRoutes(database: Database, access: AccessService): Route[] {
  const membersOf = (query: Knex.QueryBuilder) => database.legacy.rows(Member, query, WITH_USER);
  const memberOf = (query: Knex.QueryBuilder) => database.legacy.row(Member, query, WITH_USER);
  const userWhere = (query: Knex.QueryBuilder) => database.legacy.row(User, query);
  async function resolveSource(ctx: RequestContext, kind: SourceKind, minLevel = 0): Promise<Source> {
    if (kind === 'projects') {
      const found = await access.requireProject(ctx.user, ctx.params.id!, minLevel);
      const ancestors = found.project.ns_kind === 'group' ? traversalIds(found.project.ns_traversal_path) : [];
      return { type: 'Project', id: found.project.id, ancestors, level: found.level, isAdmin: !!ctx.user?.isAdmin, kind };
    }
    const found = await access.requireGroup(ctx.user, ctx.params.id!, minLevel);
    const ancestors = traversalIds(found.group.traversal_path).filter((id) => id !== found.group.id);
    return { type: 'Namespace', id: found.group.id, ancestors, level: found.level, isAdmin: !!ctx.user?.isAdmin, kind };
  }

  /** The user's own membership of the source (not an inherited one). */
  const directMember = async (source: Source, userId: number): Promise<MemberRow | undefined> =>
    recordId(userId) === null
      ? undefined
      : database.legacy.row(Member, database.legacy.from(Member).where({ source_type: source.type, source_id: source.id, user_id: userId }));

  const membersQuery = (source: Source, inherited: boolean) =>
    database.legacy
      .from(Member, 'm')
      .join('users as u', 'u.id', 'm.user_id')
      .select(USER_COLUMNS)
      .where((q) => {
        q.where((d) => d.where('m.source_type', source.type).where('m.source_id', source.id));
        if (inherited && source.ancestors.length > 0) q.orWhere((a) => a.where('m.source_type', 'Namespace').whereIn('m.source_id', source.ancestors));
      })
      .where((e) => e.whereNull('m.expires_at').orWhere('m.expires_at', '>', today()));

  async function creatorsOf(rows: MemberRow[]) {
    const ids = [...new Set(rows.map((row) => row.created_by_id).filter((id): id is number => !!id))];
    const users = ids.length > 0 ? await database.legacy.rows(User, database.legacy.from(User).whereIn('id', ids)) : [];
    return new Map(users.map((user) => [user.id, user]));
  }

  /** One row per user, the highest level winning (GitLab's `/members/all`). */
  function highestPerUser(rows: MemberWithUser[]) {
    const best = new Map<number, MemberWithUser>();
    for (const row of rows) {
      const current = best.get(row.user_id);
      if (!current || row.access_level > current.access_level) best.set(row.user_id, row);
    }
    return [...best.values()].sort((a, b) => a.user_id - b.user_id);
  }

  const listInput = params({ query: f.optional(f.string()), user_ids: f.optional(f.commaList(f.id())), show_seat_info: f.optional(f.boolean()) });

  const routesFor = (kind: SourceKind): Route[] => [
    defineRoute({
      method: 'GET',
      path: `/${kind}/:id/members`,
      paginated: true,
      input: listInput,
      async handler(ctx, input) {
        const source = await resolveSource(ctx, kind);
        const query = membersQuery(source, false);
        if (input.query) whereUserMatches(query, input.query);
        if (input.user_ids?.length) query.whereIn('m.user_id', storedIds(input.user_ids));
        const rows = await membersOf(query.clone().orderBy('m.id', 'asc').limit(ctx.page.perPage).offset(ctx.page.offset));
        const total = await totalFor(ctx.page, rows.length, () => database.legacy.count(query));
        const creators = await creatorsOf(rows);
        return page(
          rows.map((row) => presentMember(row, ctx.externalUrl, creators)),
          total,
        );
      },
    }),
    defineRoute({
      method: 'GET',
      path: `/${kind}/:id/members/all`,
      paginated: true,
      input: listInput,
      async handler(ctx, input) {
        const source = await resolveSource(ctx, kind);
        const query = membersQuery(source, true);
        if (input.query) whereUserMatches(query, input.query);
        if (input.user_ids?.length) query.whereIn('m.user_id', storedIds(input.user_ids));
        const all = highestPerUser(await membersOf(query));
        const rows = all.slice(ctx.page.offset, ctx.page.offset + ctx.page.perPage);
        const creators = await creatorsOf(rows);
        return page(
          rows.map((row) => presentMember(row, ctx.externalUrl, creators)),
          all.length,
        );
      },
    }),
    ...(['members', 'members/all'] as const).map((segment) =>
      defineRoute({
        method: 'GET',
        path: `/${kind}/:id/${segment}/:user_id`,
        input: params({ user_id: f.id() }),
        async handler(ctx, input) {
          const source = await resolveSource(ctx, kind);
          const rows = await membersOf(membersQuery(source, segment === 'members/all').whereIn('m.user_id', storedIds([input.user_id])));
          const [row] = highestPerUser(rows);
          if (!row) throw recordNotFound();
          return presentMember(row, ctx.externalUrl, await creatorsOf([row]));
        },
      }),
    ),
    defineRoute({
      method: 'POST',
      path: `/${kind}/:id/members`,
      exemptFrom: [ARCHIVED_PROJECT_GUARD],
      input: params(
        {
          user_id: f.optional(f.string()),
          username: f.optional(f.string()),
          access_level: f.integer(),
          expires_at: f.optional(f.date()),
        },
        rules.mutuallyExclusive('user_id', 'username'),
        rules.atLeastOneOf('user_id', 'username'),
      ),
      async handler(ctx, input) {
        const source = await resolveSource(ctx, kind, AccessLevel.MAINTAINER);
        assertValidMembership(input.access_level, input.expires_at);
        assertMayGrant(source, input.access_level);
        const identifiers = (input.user_id ?? input.username!)
          .split(',')
          .map((value) => value.trim())
          .filter(Boolean);
        const bulk = identifiers.length > 1;
        const byUsername = input.username !== undefined && input.username !== null;
        const errors: Record<string, string> = {};
        let createdId = 0;
        for (const identifier of identifiers) {
          const user: UserRow | undefined = byUsername
            ? await userWhere(database.legacy.from(User).whereRaw('lower(username) = ?', [identifier.toLowerCase()]))
            : /^\d+$/.test(identifier) && recordId(identifier) !== null
              ? await userWhere(database.legacy.from(User).where('id', Number(identifier)))
              : undefined;
          if (!user) {
            if (!bulk) throw notFound('User');
            errors[identifier] = 'User not found';
            continue;
          }
          const now = new Date();
          const id = await unlessTaken(
            database.legacy.em().insert(Member, {
              source_type: source.type,
              source_id: source.id,
              user_id: user.id,
              access_level: input.access_level,
              expires_at: input.expires_at ?? null,
              created_by_id: ctx.user!.id,
              created_at: now,
              updated_at: now,
            }),
            () => null,
          );
          if (id === null) {
            if (!bulk) throw conflict('Member already exists');
            errors[identifier] = 'Member already exists';
            continue;
          }
          createdId = id;
        }
        if (bulk) return reply(201, Object.keys(errors).length > 0 ? { status: 'error', message: errors } : { status: 'success' });
        const row = (await memberOf(membersQuery(source, false).where('m.id', createdId)))!;
        return reply(201, presentMember(row, ctx.externalUrl, await creatorsOf([row])));
      },
    }),
    defineRoute({
      method: 'PUT',
      path: `/${kind}/:id/members/:user_id`,
      exemptFrom: [ARCHIVED_PROJECT_GUARD],
      input: params({
        user_id: f.id(),
        access_level: f.integer(),
        expires_at: f.optional(f.date()),
      }),
      async handler(ctx, input) {
        const source = await resolveSource(ctx, kind, AccessLevel.MAINTAINER);
        const member = await directMember(source, input.user_id);
        if (!member) throw recordNotFound();
        assertValidMembership(input.access_level, input.expires_at);
        assertMayGrant(source, Math.max(input.access_level, member.access_level));
        await assertNotLastOwner(source, member, input.access_level);
        const changes: Partial<MemberRow> = { access_level: input.access_level, updated_at: new Date() };
        if (input.expires_at !== undefined) changes.expires_at = input.expires_at;
        await database.legacy.em().nativeUpdate(Member, { id: member.id }, changes);
        const row = await memberOf(membersQuery(source, false).where('m.id', member.id));
        if (!row) throw recordNotFound();
        return presentMember(row, ctx.externalUrl, await creatorsOf([row]));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: `/${kind}/:id/members/:user_id`,
      exemptFrom: [ARCHIVED_PROJECT_GUARD],
      input: params({ user_id: f.id(), skip_subresources: f.optional(f.boolean()), unassign_issuables: f.optional(f.boolean()) }),
      async handler(ctx, input) {
        const self = ctx.user!.id === input.user_id;
        const source = await resolveSource(ctx, kind, self ? 0 : AccessLevel.MAINTAINER);
        const member = await directMember(source, input.user_id);
        if (!member) throw recordNotFound();
        if (!self) assertMayGrant(source, member.access_level);
        await assertNotLastOwner(source, member, null);
        await database.legacy.em().nativeDelete(Member, { id: member.id });
        return noContent();
      },
    }),
  ];

  /** The member model's own checks: `400 {"message": {...}}`. */
  function assertValidMembership(level: number, expiresAt: string | null | undefined) {
    const errors: Record<string, string[]> = {};
    if (!(MEMBER_LEVELS as readonly number[]).includes(level)) errors.access_level = ['is not included in the list'];
    if (expiresAt && expiresAt < today()) errors.expires_at = ['cannot be a date in the past'];
    if (Object.keys(errors).length > 0) throw validationFailed(errors);
  }

  /** Only owners (and admins) may grant or change the Owner level. */
  function assertMayGrant(source: Source, level: number) {
    if (source.isAdmin) return;
    if (level >= AccessLevel.OWNER && source.level < AccessLevel.OWNER) throw forbidden();
  }

  async function assertNotLastOwner(source: Source, member: MemberRow, newLevel: number | null) {
    if (source.type !== 'Namespace' || member.access_level !== AccessLevel.OWNER || newLevel === AccessLevel.OWNER) return;
    const others = database.legacy
      .table(Member)
      .where({ source_type: 'Namespace', source_id: source.id, access_level: AccessLevel.OWNER })
      .whereNot('id', member.id);
    if ((await database.legacy.count(others.limit(1))) === 0) throw forbidden();
  }

  return [...routesFor('projects'), ...routesFor('groups')];
}

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
  patchFrom,
  totalFor,
  validationFailed,
  type Database,
  type EventBus,
  type RequestContext,
  type Route,
} from '@forgekit/kernel';
import { ARCHIVED_PROJECT_GUARD } from '../access/archived-project-guard.js';
import { recordId, unlessTaken, type Conditions } from '@forgekit/kernel/orm';
import type { AccessService, Member, User } from '../contracts.js';
import { MemberEntity, type MemberRow } from '../entities/member.js';
import { UserEntity } from '../entities/user.js';
import { AccessLevel, MEMBER_LEVELS, today } from '../shared/levels.js';
import { traversalIds } from '../shared/traversal.js';
import { USER_BASIC_PROPERTIES, usersQuery } from '../users/user-query.js';
import { userBasic, type UserBasicSource } from '../users/user-presenter.js';
import { coreEvents } from '../events.js';
import { inheritedRefusal, memberEventPayload } from './member-service.js';
import { bulkMembershipResultSchema, memberSchema } from './member-schemas.js';

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

/** A membership with its user (what `userBasic` shows), read beside it. */
type MemberWithUser = Member & { user: UserBasicSource };

/** Conditions over memberships `m` with their users `u`. */
type MemberConditions = Conditions<{ m: typeof MemberEntity; u: typeof UserEntity }, 'm'>;

/** GitLab's member `query`: the username or the name contains it. */
const whereUserMatches = (query: MemberConditions, text: string) => query.whereContains(['u.username', 'u.name'], text);

/** User ids a record can have; the others match nothing. */
const storedIds = (ids: readonly number[]) => ids.filter((id) => recordId(id) !== null);

function presentMember(row: MemberWithUser, externalUrl: string, creators: Map<number, User>) {
  const creator = row.createdById ? creators.get(row.createdById) : undefined;
  const body: Record<string, unknown> = { ...userBasic(row.user, externalUrl), access_level: row.accessLevel, created_at: row.createdAt.toISOString() };
  // GitLab leaves `created_by` out, rather than null, when nobody is recorded.
  if (creator) body.created_by = userBasic(creator, externalUrl);
  body.expires_at = row.expiresAt;
  body.membership_state = 'active';
  return body;
}

export function memberRoutes(database: Database, access: AccessService, events: EventBus): Route[] {
  const announce = async (event: typeof coreEvents.memberAdded, id: number) => {
    const member = (await database.row(database.from(MemberEntity).where('id', id))) as Member | undefined;
    if (member) await events.emit(event, memberEventPayload(member));
  };
  const membersOf = async (query: MembersQuery) => (await database.rows(query)) as MemberWithUser[];
  const memberOf = async (query: MembersQuery) => (await database.row(query)) as MemberWithUser | undefined;
  async function resolveSource(ctx: RequestContext, kind: SourceKind, minLevel = 0): Promise<Source> {
    if (kind === 'projects') {
      const found = await access.requireProject(ctx.user, ctx.params.id!, minLevel);
      const { namespace } = found.project;
      const ancestors = namespace.kind === 'group' ? traversalIds(namespace.traversalPath) : [];
      return { type: 'Project', id: found.project.id, ancestors, level: found.level, isAdmin: !!ctx.user?.isAdmin, kind };
    }
    const found = await access.requireGroup(ctx.user, ctx.params.id!, minLevel);
    const ancestors = traversalIds(found.group.traversalPath).filter((id) => id !== found.group.id);
    return { type: 'Namespace', id: found.group.id, ancestors, level: found.level, isAdmin: !!ctx.user?.isAdmin, kind };
  }

  /** The user's own membership of the source (not an inherited one). */
  const directMember = async (source: Source, userId: number): Promise<Member | undefined> =>
    recordId(userId) === null
      ? undefined
      : ((await database.row(database.from(MemberEntity).where({ sourceType: source.type, sourceId: source.id, userId }))) as Member | undefined);

  const membersQuery = (source: Source, inherited: boolean) =>
    database
      .from(MemberEntity, 'm')
      .join(UserEntity, 'u', 'u.id', 'm.userId')
      .nest('user', 'u', USER_BASIC_PROPERTIES)
      .where((q) => {
        q.where((d) => d.where('m.sourceType', source.type).where('m.sourceId', source.id));
        if (inherited && source.ancestors.length > 0) q.orWhere((a) => a.where('m.sourceType', 'Namespace').whereIn('m.sourceId', source.ancestors));
      })
      .where((e) => e.whereNull('m.expiresAt').orWhere('m.expiresAt', '>', today()));
  type MembersQuery = ReturnType<typeof membersQuery>;

  async function creatorsOf(rows: Member[]) {
    const ids = [...new Set(rows.map((row) => row.createdById).filter((id): id is number => !!id))];
    const users = ids.length > 0 ? ((await database.rows(usersQuery(database).whereIn('id', ids))) as User[]) : [];
    return new Map(users.map((user) => [user.id, user]));
  }

  /** One row per user, the highest level winning (GitLab's `/members/all`). */
  function highestPerUser(rows: MemberWithUser[]) {
    const best = new Map<number, MemberWithUser>();
    for (const row of rows) {
      const current = best.get(row.userId);
      if (!current || row.accessLevel > current.accessLevel) best.set(row.userId, row);
    }
    return [...best.values()].sort((a, b) => a.userId - b.userId);
  }

  const listInput = params({ query: f.optional(f.string()), user_ids: f.optional(f.commaList(f.id())), show_seat_info: f.optional(f.boolean()) });

  const routesFor = (kind: SourceKind): Route[] => [
    defineRoute({
      method: 'GET',
      path: `/${kind}/:id/members`,
      paginated: true,
      response: { schema: memberSchema },
      input: listInput,
      async handler(ctx, input) {
        const source = await resolveSource(ctx, kind);
        const query = membersQuery(source, false);
        if (input.query) whereUserMatches(query, input.query);
        if (input.user_ids?.length) query.whereIn('m.userId', storedIds(input.user_ids));
        const rows = await membersOf(query.clone().orderBy('m.id', 'asc').limit(ctx.page.perPage).offset(ctx.page.offset));
        const total = await totalFor(ctx.page, rows.length, () => database.count(query));
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
      response: { schema: memberSchema },
      input: listInput,
      async handler(ctx, input) {
        const source = await resolveSource(ctx, kind);
        const query = membersQuery(source, true);
        if (input.query) whereUserMatches(query, input.query);
        if (input.user_ids?.length) query.whereIn('m.userId', storedIds(input.user_ids));
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
        response: { schema: memberSchema },
        input: params({ user_id: f.id() }),
        async handler(ctx, input) {
          const source = await resolveSource(ctx, kind);
          const rows = await membersOf(membersQuery(source, segment === 'members/all').whereIn('m.userId', storedIds([input.user_id])));
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
      // One user: the member; several (`user_id=1,2`): how each fared.
      response: { schema: { anyOf: [memberSchema, bulkMembershipResultSchema] }, errors: [409] },
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
          const query = byUsername
            ? database.table(UserEntity).select('id').whereIgnoringCase('username', identifier)
            : /^\d+$/.test(identifier) && recordId(identifier) !== null
              ? database.table(UserEntity).select('id').where('id', Number(identifier))
              : undefined;
          const user = query && (await database.row(query));
          if (!user) {
            if (!bulk) throw notFound('User');
            errors[identifier] = 'User not found';
            continue;
          }
          const refusal = await inheritedRefusal(database, source.ancestors, user.id, input.access_level);
          if (refusal) {
            if (!bulk) throw validationFailed({ access_level: [refusal] });
            errors[identifier] = `Access level ${refusal}`;
            continue;
          }
          const now = new Date();
          const id = await unlessTaken(
            database.insert(MemberEntity, {
              sourceType: source.type,
              sourceId: source.id,
              userId: user.id,
              accessLevel: input.access_level,
              expiresAt: input.expires_at ?? null,
              createdById: ctx.user!.id,
              createdAt: now,
              updatedAt: now,
            }),
            () => null,
          );
          if (id === null) {
            if (!bulk) throw conflict('Member already exists');
            errors[identifier] = 'Member already exists';
            continue;
          }
          createdId = id;
          await announce(coreEvents.memberAdded, id);
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
      response: { schema: memberSchema },
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
        assertMayGrant(source, Math.max(input.access_level, member.accessLevel));
        await assertNotLastOwner(source, member, input.access_level);
        const refusal = await inheritedRefusal(database, source.ancestors, member.userId, input.access_level);
        if (refusal) throw validationFailed({ access_level: [refusal] });
        const changes = { ...patchFrom<MemberRow, typeof input>(input, { access_level: 'accessLevel', expires_at: 'expiresAt' }), updatedAt: new Date() };
        await database.update(MemberEntity, { id: member.id }, changes);
        await announce(coreEvents.memberUpdated, member.id);
        const row = await memberOf(membersQuery(source, false).where('m.id', member.id));
        if (!row) throw recordNotFound();
        return presentMember(row, ctx.externalUrl, await creatorsOf([row]));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: `/${kind}/:id/members/:user_id`,
      exemptFrom: [ARCHIVED_PROJECT_GUARD],
      response: { status: 204 },
      input: params({ user_id: f.id(), skip_subresources: f.optional(f.boolean()), unassign_issuables: f.optional(f.boolean()) }),
      async handler(ctx, input) {
        const self = ctx.user!.id === input.user_id;
        const source = await resolveSource(ctx, kind, self ? 0 : AccessLevel.MAINTAINER);
        const member = await directMember(source, input.user_id);
        if (!member) throw recordNotFound();
        if (!self) assertMayGrant(source, member.accessLevel);
        await assertNotLastOwner(source, member, null);
        await database.delete(MemberEntity, { id: member.id });
        await events.emit(coreEvents.memberRemoved, memberEventPayload(member));
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

  async function assertNotLastOwner(source: Source, member: Member, newLevel: number | null) {
    if (source.type !== 'Namespace' || member.accessLevel !== AccessLevel.OWNER || newLevel === AccessLevel.OWNER) return;
    const others = database
      .table(MemberEntity)
      .where({ sourceType: 'Namespace', sourceId: source.id, accessLevel: AccessLevel.OWNER })
      .whereNot('id', member.id);
    if ((await database.count(others.limit(1))) === 0) throw forbidden();
  }

  return [...routesFor('projects'), ...routesFor('groups')];
}

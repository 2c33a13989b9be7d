/** `/projects/:id/invitations` and `/groups/:id/invitations`, and the emailed link's `/invitations/:token/accept`. */
import {
  badRequest,
  created,
  defineRoute,
  f,
  frameworkError,
  noContent,
  page,
  params,
  reply,
  rules,
  totalFor,
  type RequestContext,
  type Route,
} from '@forgekit/kernel';
import { ARCHIVED_PROJECT_GUARD, AccessLevel, bulkMembershipResultSchema, type AccessService, type UserService } from '@forgekit/plugin-core/contracts';
import type { InvitationRow } from '../entities/invitation.js';
import { presentInvitation } from './invitation-presenter.js';
import { acceptedInvitationSchema, invitationSchema } from './invitation-schemas.js';
import type { InvitationService, InvitationSource } from './invitation-service.js';

type SourceKind = 'projects' | 'groups';

/** The levels a member may have (GitLab's `Gitlab::Access.all_values`). */
const MEMBER_LEVELS = [
  AccessLevel.MINIMAL,
  AccessLevel.GUEST,
  AccessLevel.PLANNER,
  AccessLevel.REPORTER,
  AccessLevel.DEVELOPER,
  AccessLevel.MAINTAINER,
  AccessLevel.OWNER,
] as number[];
const memberLevel = () => f.values(MEMBER_LEVELS, f.integer());

/** The group ids of a `/1/5/9/` traversal path, top first. */

/** What Grape's email validator accepts: one `@`, something either side, no spaces. */
const EMAIL = /^[^@\s,]+@[^@\s,]+$/;

export function invitationRoutes(service: InvitationService, access: AccessService, users: UserService): Route[] {
  async function resolveSource(ctx: RequestContext, kind: SourceKind): Promise<InvitationSource> {
    const callerIsAdmin = !!ctx.user?.isAdmin;
    if (kind === 'projects') {
      const found = await access.requireProject(ctx.user, ctx.params.id!, AccessLevel.MAINTAINER);
      const { namespace } = found.project;
      const name = `${namespace.fullName} / ${found.project.name}`;
      return { type: 'Project', id: found.project.id, name, callerLevel: found.level, callerIsAdmin };
    }
    const { group, level } = await access.requireGroup(ctx.user, ctx.params.id!, AccessLevel.MAINTAINER);
    return { type: 'Namespace', id: group.id, name: group.fullName, callerLevel: level, callerIsAdmin };
  }

  async function present(rows: InvitationRow[]) {
    const creatorIds = rows.map((row) => row.createdById).filter((id): id is number => id !== null);
    const creators = new Map((await users.findByIds(creatorIds)).map((user) => [user.id, user]));
    return rows.map((row) => presentInvitation(row, creators));
  }

  const routesFor = (kind: SourceKind): Route[] => [
    defineRoute({
      method: 'POST',
      path: `/${kind}/:id/invitations`,
      exemptFrom: [ARCHIVED_PROJECT_GUARD],
      response: { schema: bulkMembershipResultSchema },
      input: params({
        access_level: memberLevel(),
        email: f.optional(f.commaList()),
        user_id: f.optional(f.commaList(f.id())),
        expires_at: f.optional(f.date()),
        invite_source: f.optional(f.string(), 'invitations-api'),
        member_role_id: f.optional(f.integer()),
      }),
      async handler(ctx, input) {
        const emails = input.email ?? [];
        if (emails.some((email) => !EMAIL.test(email))) throw frameworkError(400, 'email contains an invalid email address');
        const source = await resolveSource(ctx, kind);
        const userIds = input.user_id ?? [];
        if (emails.length === 0 && userIds.length === 0) throw badRequest('Must provide either email or user_id as a parameter');
        const request = { emails, userIds, accessLevel: input.access_level, expiresAt: input.expires_at ?? null, inviteSource: input.invite_source! };
        return reply(201, await service.invite(source, request, ctx.user));
      },
    }),
    defineRoute({
      method: 'GET',
      path: `/${kind}/:id/invitations`,
      paginated: true,
      response: { schema: invitationSchema },
      input: params({ query: f.optional(f.string()) }),
      async handler(ctx, input) {
        const source = await resolveSource(ctx, kind);
        const { rows, count } = await service.list(source, input.query || undefined, ctx.page.perPage, ctx.page.offset);
        return page(await present(rows), await totalFor(ctx.page, rows.length, count));
      },
    }),
    defineRoute({
      method: 'PUT',
      path: `/${kind}/:id/invitations/:email`,
      exemptFrom: [ARCHIVED_PROJECT_GUARD],
      response: { schema: invitationSchema },
      input: params({ access_level: f.optional(memberLevel()), expires_at: f.optional(f.date()) }, rules.atLeastOneOf('access_level', 'expires_at')),
      async handler(ctx, input) {
        const source = await resolveSource(ctx, kind);
        const patch = {
          ...(input.access_level !== undefined && input.access_level !== null ? { accessLevel: input.access_level } : {}),
          ...(input.expires_at !== undefined ? { expiresAt: input.expires_at } : {}),
        };
        const [body] = await present([await service.update(source, ctx.params.email, patch)]);
        return body;
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: `/${kind}/:id/invitations/:email`,
      exemptFrom: [ARCHIVED_PROJECT_GUARD],
      response: { status: 204, errors: [409] },
      async handler(ctx) {
        await service.remove(await resolveSource(ctx, kind), ctx.params.email);
        return noContent();
      },
    }),
  ];

  return [
    ...routesFor('projects'),
    ...routesFor('groups'),
    defineRoute({
      method: 'POST',
      path: '/invitations/:token/accept',
      response: { schema: acceptedInvitationSchema },
      async handler(ctx) {
        const member = await service.acceptToken(ctx.params.token, ctx.user);
        return created({
          source_type: member.sourceType,
          source_id: member.sourceId,
          user_id: member.userId,
          access_level: member.accessLevel,
          expires_at: member.expiresAt,
        });
      },
    }),
  ];
}

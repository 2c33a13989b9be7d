/**
 * GitLab's invitations (`Members::InviteService`, `API::Invitations`): an email address (or a
 * user) invited to a project or a group at a level. An address that is a user's confirmed
 * email becomes a membership at once; any other stays a pending invitation until a user with
 * that email is created or confirms it, or someone follows the emailed link.
 */
import { generateToken, recordNotFound, tokenDigest, forbidden, conflict, notFound, validationFailed, type Principal } from '@forgekit/kernel';
import { AccessLevel, type Member, type MemberService, type MemberSource, type User, type UserService } from '@forgekit/plugin-core/contracts';
import type { InvitationRow } from '../entities/invitation.js';
import type { Mailer } from '../mail/mailer.js';
import type { InvitationStore } from './invitation-store.js';

/** GitLab's `Members::InviteService::DEFAULT_LIMIT`. */
export const MAX_RECIPIENTS = 100;

/** A project or group being administered, with the caller's standing there. */
export interface InvitationSource extends MemberSource {
  /** What the invitation email names (`Group Name`, `Namespace / Project`). */
  name: string;
  callerLevel: number;
  callerIsAdmin: boolean;
}

export interface InviteRequest {
  emails: string[];
  userIds: number[];
  accessLevel: number;
  expiresAt: string | null;
  inviteSource: string;
}

export type InviteResult = { status: 'success' } | { status: 'error'; message: string | Record<string, string> };

const today = () => new Date().toISOString().slice(0, 10);
const INVITE_TOKEN_PREFIX = 'fkinv-';

export interface InvitationServiceOptions {
  /** The absolute URL the emailed link goes to, for a token. */
  acceptUrl: (token: string) => string;
  log: (message: string, error: unknown) => void;
}

export interface InvitationDeps {
  users: UserService;
  members: MemberService;
  mailer: Mailer;
}

export function createInvitationService(store: InvitationStore, deps: InvitationDeps, options: InvitationServiceOptions) {
  const { users, members, mailer } = deps;

  /** Only owners (and administrators) give or change the Owner level. */
  function assertMayGrant(source: InvitationSource, level: number) {
    if (level >= AccessLevel.OWNER && source.callerLevel < AccessLevel.OWNER && !source.callerIsAdmin) throw forbidden();
  }

  /** The refusal of a membership below the user's membership of a group above the source, or null. */
  async function belowInherited(source: InvitationSource, userId: number, level: number): Promise<string | null> {
    const refusal = await members.belowInherited(source, userId, level);
    return refusal && `Access level ${refusal}`;
  }

  /** The user's membership at `level`: added, or an existing one changed to it (GitLab updates rather than refuses). */
  async function grant(source: MemberSource, user: Pick<User, 'id'>, accessLevel: number, expiresAt: string | null, createdById: number | null) {
    const existing = await members.find(source, user.id);
    if (!existing) return members.add(source, { userId: user.id, accessLevel, expiresAt, createdById });
    if (existing.accessLevel === accessLevel && existing.expiresAt === expiresAt) return existing;
    return members.update(existing, { accessLevel, expiresAt });
  }

  async function sendInvitation(source: InvitationSource, email: string, token: string, inviter: Principal) {
    try {
      await mailer.send({
        to: email,
        subject: `Invitation to join the ${source.name} ${source.type === 'Project' ? 'project' : 'group'}`,
        text: [
          `${inviter.username} invited you to join ${source.name}.`,
          '',
          `Accept the invitation: ${options.acceptUrl(token)}`,
          '(a POST request, signed in as the user who accepts)',
          '',
          `Or sign up with ${email}: the invitation becomes a membership when that address is confirmed.`,
          '',
        ].join('\n'),
      });
    } catch (error) {
      // The invitation stands without its email; a later re-invite or the address's confirmation still serves it.
      options.log(`invitation email to ${email} was not sent`, error);
    }
  }

  /** Invites one address: a membership for a confirmed user, otherwise a new or updated invitation; the refusal, or null. */
  async function inviteEmail(source: InvitationSource, email: string, request: InviteRequest, inviter: Principal): Promise<string | null> {
    const user = await users.findByEmail(email);
    if (user?.confirmedAt) {
      const refusal = await belowInherited(source, user.id, request.accessLevel);
      if (!refusal) await grant(source, user, request.accessLevel, request.expiresAt, inviter.id);
      return refusal;
    }
    const existing = await store.find(source, email);
    if (existing) {
      await store.update(existing.id, { accessLevel: request.accessLevel, expiresAt: request.expiresAt });
      return null;
    }
    const token = generateToken(INVITE_TOKEN_PREFIX, 32);
    const now = new Date();
    await store.insert({
      sourceType: source.type,
      sourceId: source.id,
      inviteEmail: email.toLowerCase(),
      accessLevel: request.accessLevel,
      expiresAt: request.expiresAt,
      tokenDigest: tokenDigest(token),
      inviteSource: request.inviteSource,
      createdById: inviter.id,
      createdAt: now,
      updatedAt: now,
    });
    await sendInvitation(source, email, token, inviter);
    return null;
  }

  async function findOr404(source: MemberSource, email: string): Promise<InvitationRow> {
    const invitation = await store.find(source, email);
    if (!invitation) throw recordNotFound();
    return invitation;
  }

  /** Makes the invitation a membership of `user` and removes it. */
  /**
   * Makes the invitation a membership of `user` and removes it; or, when the user's membership of
   * a group above the source has since risen past the invited level, keeps it and gives the refusal.
   */
  async function accept(invitation: InvitationRow, user: Pick<User, 'id'>): Promise<{ member: Member } | { refusal: string }> {
    const source = { type: invitation.sourceType, id: invitation.sourceId };
    const existing = await members.find(source, user.id);
    // An invitation never lowers a membership the user already has.
    if (existing && existing.accessLevel >= invitation.accessLevel) {
      await store.remove(invitation.id);
      return { member: existing };
    }
    const refusal = await members.belowInherited(source, user.id, invitation.accessLevel);
    if (refusal) return { refusal };
    const member = await grant(source, user, invitation.accessLevel, invitation.expiresAt ?? null, invitation.createdById ?? null);
    await store.remove(invitation.id);
    return { member };
  }

  return {
    async invite(source: InvitationSource, request: InviteRequest, inviter: Principal): Promise<InviteResult> {
      assertMayGrant(source, request.accessLevel);
      const emails = [...new Set(request.emails)];
      const userIds = [...new Set(request.userIds)];
      if (emails.length + userIds.length > MAX_RECIPIENTS) return { status: 'error', message: `Too many users specified (limit is ${MAX_RECIPIENTS})` };
      const invitedUsers = await users.findByIds(userIds);
      const errors: Record<string, string> = {};
      if (request.expiresAt && request.expiresAt < today()) {
        for (const email of emails) errors[email] = 'Expires at cannot be a date in the past';
        for (const user of invitedUsers) errors[user.username] = 'Expires at cannot be a date in the past';
        return { status: 'error', message: errors };
      }
      for (const email of emails) {
        const refusal = await inviteEmail(source, email, request, inviter);
        if (refusal) errors[email] = refusal;
      }
      for (const user of invitedUsers) {
        if (user.bot && user.username.startsWith('project_')) {
          errors[user.username] = 'User project bots cannot be added to other groups / projects';
          continue;
        }
        const refusal = await belowInherited(source, user.id, request.accessLevel);
        if (refusal) errors[user.username] = refusal;
        else await grant(source, user, request.accessLevel, request.expiresAt, inviter.id);
      }
      return Object.keys(errors).length > 0 ? { status: 'error', message: errors } : { status: 'success' };
    },

    list: (source: MemberSource, email: string | undefined, limit: number, offset: number) => store.page(source, email, limit, offset),

    async update(source: InvitationSource, email: string, patch: { accessLevel?: number; expiresAt?: string | null }) {
      const invitation = await findOr404(source, email);
      assertMayGrant(source, Math.max(invitation.accessLevel, patch.accessLevel ?? 0));
      if (patch.expiresAt && patch.expiresAt < today()) throw validationFailed({ expires_at: ['cannot be a date in the past'] });
      await store.update(invitation.id, patch);
      return (await store.find(source, email))!;
    },

    async remove(source: InvitationSource, email: string) {
      const invitation = await findOr404(source, email);
      assertMayGrant(source, invitation.accessLevel);
      if (!(await store.remove(invitation.id))) throw conflict('Invitation could not be deleted');
    },

    /** The emailed link: the signed-in user takes the invitation. */
    async acceptToken(token: string, user: Principal) {
      const invitation = await store.findByTokenDigest(tokenDigest(token));
      if (!invitation) throw notFound('Invitation');
      const accepted = await accept(invitation, user);
      if ('refusal' in accepted) throw validationFailed({ access_level: [accepted.refusal] });
      return accepted.member;
    },

    /** Every invitation of a newly confirmed address becomes a membership of its user (one the user's group membership has outgrown stays). */
    async acceptAllFor(userId: number, email: string) {
      for (const invitation of await store.forEmail(email)) await accept(invitation, { id: userId });
    },

    removeAllOf: (source: MemberSource) => store.removeAllOf(source),
    forgetCreator: (userId: number) => store.forgetCreator(userId),
  };
}

export type InvitationService = ReturnType<typeof createInvitationService>;

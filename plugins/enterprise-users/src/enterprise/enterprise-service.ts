/**
 * Enterprise users of top-level groups (GitLab's `API::GroupEnterpriseUsers`): a user is claimed
 * by the group that verified the domain of their email (Pages domains of the group's projects).
 * Claims are recorded, with when and why, as domains are verified and as the group's Owners
 * look; a claim stays when the domain or the email later changes, as in GitLab.
 */
import { apiError, ApiError, badRequest, checkUnmodifiedSince, conflict, forbidden, recordNotFound, type Principal } from '@forgekit/kernel';
import { AccessLevel, type AccessService, type Namespace, type User, type UserDeletion, type UserService } from '@forgekit/plugin-core/contracts';
import type { PagesDomainsService } from '@forgekit/plugin-pages-domains/contracts';
import type { TwoFactorService } from '../two-factor/two-factor-service.js';
import type { ClaimStore } from './claim-store.js';

export interface EnterpriseFilters {
  username?: string | null;
  search?: string | null;
  active?: boolean | null;
  blocked?: boolean | null;
  createdAfter?: Date | null;
  createdBefore?: Date | null;
  twoFactor?: 'enabled' | 'disabled' | null;
}

export interface EnterpriseDeps {
  claims: ClaimStore;
  access: AccessService;
  users: UserService;
  deletion: UserDeletion;
  pages: PagesDomainsService;
  twoFactor: TwoFactorService;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NOT_OWNED = "Email must be owned by the user's enterprise group";
const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

export function createEnterpriseService(deps: EnterpriseDeps) {
  const { claims, access, users } = deps;

  /** The verified domains of the projects under the group, as the caller (an Owner sees them all) finds them. */
  async function verifiedDomainsOf(caller: Principal, group: Namespace): Promise<string[]> {
    const projectIds = await access.visibleProjectIds(caller, { underTraversalPath: group.traversalPath });
    return deps.pages.verifiedDomainsOf(projectIds);
  }

  /** Claims for the group every user on one of its verified domains that no group claimed yet. */
  async function claimDomainUsers(groupId: number, domains: readonly string[]) {
    for (const domain of domains) {
      const found = await users.findByEmailDomain(domain);
      const taken = await claims.claimedAmong(found.map((user) => user.id));
      for (const user of found) {
        if (!taken.has(user.id)) await claims.claim({ userId: user.id, groupId, reason: 'verified_domain', domain, claimedAt: new Date() });
      }
    }
  }

  async function claimedUser(group: Namespace, userId: number): Promise<User> {
    const claim = await claims.findOf(group.id, userId);
    const user = claim ? await users.findById(userId) : undefined;
    if (!user) throw recordNotFound();
    return user;
  }

  return {
    /** GitLab's checks in order: the group, top-level, the caller an Owner; then the claims are brought up to date. */
    async groupFor(caller: Principal, idOrPath: string): Promise<Namespace> {
      const { group, level } = await access.requireGroup(caller, idOrPath);
      if (group.parentId !== null) throw badRequest('Must be a top-level group');
      if (level < AccessLevel.OWNER) throw forbidden();
      await claimDomainUsers(group.id, await verifiedDomainsOf(caller, group));
      return group;
    },

    /** A domain of a project under `topGroupId` was verified: its users become the group's enterprise users. */
    claimForDomain: (topGroupId: number, domain: string) => claimDomainUsers(topGroupId, [domain]),

    /**
     * The top-level group's SAML provisioned the user: a human user no group claimed yet becomes
     * its enterprise user (GitLab's `provisioned_by_group`; a user belongs to one group at most).
     */
    async claimForSaml(topGroupId: number, userId: number) {
      const user = await users.findById(userId);
      if (!user || user.bot) return;
      await claims.claim({ userId, groupId: topGroupId, reason: 'group_saml', domain: null, claimedAt: new Date() });
    },

    /** The group's enterprise users that pass the filters, newest id first. */
    async list(group: Namespace, filters: EnterpriseFilters): Promise<User[]> {
      let found = await users.findByIds(await claims.userIdsOf(group.id));
      const search = filters.search?.toLowerCase();
      if (filters.username) found = found.filter((user) => user.username.toLowerCase() === filters.username!.toLowerCase());
      if (search) {
        found = found.filter((user) => [user.name, user.username, user.email, user.publicEmail ?? ''].some((text) => text.toLowerCase().includes(search)));
      }
      if (filters.active) found = found.filter((user) => user.state === 'active');
      if (filters.blocked) found = found.filter((user) => user.state === 'blocked');
      if (filters.createdAfter) found = found.filter((user) => user.createdAt >= filters.createdAfter!);
      if (filters.createdBefore) found = found.filter((user) => user.createdAt <= filters.createdBefore!);
      if (filters.twoFactor) {
        const enabled = await deps.twoFactor.enabledAmong(found.map((user) => user.id));
        found = found.filter((user) => enabled.has(user.id) === (filters.twoFactor === 'enabled'));
      }
      return found.sort((a, b) => b.id - a.id);
    },

    get: claimedUser,

    /** `name` and `email`; the email must be on one of the group's verified domains and applies at once. */
    async update(caller: Principal, group: Namespace, userId: number, input: { name?: string | null; email?: string | null }): Promise<User> {
      const user = await claimedUser(group, userId);
      const patch: { name?: string; email?: string } = {};
      if (input.name !== undefined && input.name !== null) patch.name = input.name;
      if (input.email !== undefined && input.email !== null) {
        const onDomain = (await verifiedDomainsOf(caller, group)).includes(domainOf(input.email));
        if (!onDomain) throw apiError(400, NOT_OWNED);
        if (!EMAIL.test(input.email)) throw apiError(400, `Email is invalid. ${NOT_OWNED}`);
        patch.email = input.email;
      }
      if (Object.keys(patch).length === 0) return user;
      try {
        return await users.update(user.id, patch);
      } catch (error) {
        // Core answers a taken email with 409; this API answers it with 400.
        if (error instanceof ApiError && error.status === 409) throw apiError(400, 'Email has already been taken');
        throw error;
      }
    },

    async remove(group: Namespace, userId: number, hardDelete: boolean, ifUnmodifiedSince: string | undefined) {
      const user = await claimedUser(group, userId);
      checkUnmodifiedSince(ifUnmodifiedSince, user.updatedAt);
      const outcome = await deps.deletion.remove(user.id, { hardDelete });
      if (outcome === 'sole-owner') throw conflict('Can not remove a user who is the sole owner of a group.');
    },

    async disableTwoFactor(group: Namespace, userId: number) {
      const user = await claimedUser(group, userId);
      await deps.twoFactor.disable(user.id);
    },

    removeUser: (userId: number) => claims.removeUser(userId),
    removeGroup: (groupId: number) => claims.removeGroup(groupId),
  };
}

export type EnterpriseService = ReturnType<typeof createEnterpriseService>;

/**
 * Users' identities at a group's SAML provider (GitLab's `API::ProviderIdentity` for
 * `/groups/:id/saml`), and what a sign-in through the provider does: the identity is
 * recorded, and the user gets the memberships the SAML group links map their SAML groups to,
 * or the provider's default level in the top-level group.
 */
import { apiError, badRequest, notFound, type EventBus } from '@forgekit/kernel';
import type { MemberService, User, UserFieldExtension } from '@forgekit/plugin-core/contracts';
import { samlEvents } from '../contracts.js';
import type { SamlIdentityRow } from '../entities/saml-identity.js';
import type { SamlProviderRow } from '../entities/saml-provider.js';
import type { LinkService } from '../group-links/link-service.js';
import type { IdentityStore } from './identity-store.js';

const TAKEN = 'Extern uid has already been taken';

export interface SignIn {
  user: Pick<User, 'id'>;
  externUid: string;
  /** The SAML groups the identity provider says the user is in. */
  samlGroups: readonly string[];
  /** The name of the provider the assertion came from, matched against the links' `provider`. */
  provider: string | null;
}

export function createIdentityService(store: IdentityStore, links: LinkService, members: MemberService, events: Pick<EventBus, 'emit'>) {
  async function findOr404(provider: SamlProviderRow, externUid: string) {
    const identity = await store.byExternUid(provider.id, externUid);
    if (!identity) throw notFound('Identity');
    return identity;
  }

  /** The membership at `level`, added or changed to it. */
  async function setLevel(groupId: number, userId: number, level: number) {
    const source = { type: 'Namespace' as const, id: groupId };
    const existing = await members.find(source, userId);
    if (!existing) await members.add(source, { userId, accessLevel: level });
    else if (existing.accessLevel !== level) await members.update(existing, { accessLevel: level });
  }

  /** Records the identity; false when another user has the extern uid. A new or changed identity is announced. */
  async function record(provider: SamlProviderRow, userId: number, externUid: string): Promise<boolean> {
    const own = await store.ofUser(provider.id, userId);
    if (own?.externUid === externUid) return true;
    const recorded = own ? await store.changeExternUid(own.id, externUid) : (await store.insert(provider.id, userId, externUid)) !== null;
    if (recorded) await events.emit(samlEvents.identityLinked, { userId, groupId: provider.groupId, samlProviderId: provider.id, externUid });
    return recorded;
  }

  return {
    all: (provider: SamlProviderRow) => store.all(provider.id),
    find: findOr404,

    async changeExternUid(provider: SamlProviderRow, externUid: string, next: string): Promise<SamlIdentityRow> {
      const identity = await findOr404(provider, externUid);
      if (next.trim() === '') throw apiError(400, "Extern uid can't be blank");
      if (!(await store.changeExternUid(identity.id, next))) throw apiError(400, TAKEN);
      return (await store.byExternUid(provider.id, next))!;
    },

    async remove(provider: SamlProviderRow, externUid: string) {
      await store.remove((await findOr404(provider, externUid)).id);
    },

    /** Whether another user has this extern uid at the provider. */
    async takenByAnother(provider: SamlProviderRow, externUid: string, userId: number | null) {
      const holder = await store.byExternUid(provider.id, externUid);
      return !!holder && holder.userId !== userId;
    },

    /** Records the user's identity at the provider (or changes its extern uid); false when another user has that uid. */
    record,

    /** A sign-in through the provider of the top-level group `provider.groupId`. */
    async signIn(provider: SamlProviderRow, signIn: SignIn): Promise<SamlIdentityRow> {
      if (!provider.enabled) throw badRequest('SAML is not enabled for this group');
      const userId = signIn.user.id;
      if (!(await record(provider, userId, signIn.externUid))) throw apiError(400, TAKEN);

      const levels = await links.levelsFor(provider.groupId, signIn.samlGroups, signIn.provider);
      for (const [groupId, level] of levels) await setLevel(groupId, userId, level);
      const root = { type: 'Namespace' as const, id: provider.groupId };
      if (!levels.has(provider.groupId) && !(await members.find(root, userId))) {
        await members.add(root, { userId, accessLevel: provider.defaultMembershipRole });
      }
      return (await store.ofUser(provider.id, userId))!;
    },

    /** `identities` on core's user answers that show them: the user's group SAML identities. */
    identityFields: (async (entries) => {
      const shown = entries.filter(({ body }) => Array.isArray(body.identities));
      if (shown.length === 0) return;
      const identities = await store.ofUsers(shown.map(({ user }) => user.id));
      for (const { user, body } of shown) {
        const own = identities
          .filter((identity) => identity.userId === user.id)
          .map((identity) => ({ provider: 'group_saml', extern_uid: identity.externUid, saml_provider_id: identity.samlProviderId }));
        body.identities = [...(body.identities as unknown[]), ...own];
      }
    }) satisfies UserFieldExtension,

    /** Answers whether the user had any. */
    removeAllOfUser: (userId: number) => store.removeAllOfUser(userId),
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;

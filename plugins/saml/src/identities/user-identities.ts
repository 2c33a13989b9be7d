/**
 * The `group_saml` identities of core's user routes (GitLab's self-managed path):
 * `POST`/`PUT /users` with `provider=group_saml`, `extern_uid` and `group_id_for_saml`, and
 * `DELETE /users/:id/identities/group_saml`.
 */
import { validationFailed } from '@forgekit/kernel';
import type { UserIdentityHandler } from '@forgekit/plugin-core/contracts';
import type { ProviderService } from '../providers/provider-service.js';
import type { IdentityService } from './identity-service.js';

export const GROUP_SAML = 'group_saml';

const refuse = (message: string) => validationFailed({ identities: [message] });

export function groupSamlIdentities(identities: IdentityService, providers: ProviderService): UserIdentityHandler {
  async function providerOf(groupId: number | null) {
    if (groupId === null) throw refuse('group_id_for_saml is required for the group_saml provider');
    const provider = await providers.ofGroup(groupId);
    if (!provider) throw refuse('the group has no SAML provider');
    return provider;
  }
  return {
    provider: GROUP_SAML,
    async check(identity, userId) {
      const provider = await providerOf(identity.groupIdForSaml);
      if (identity.externUid.trim() === '') throw refuse("Extern uid can't be blank");
      if (await identities.takenByAnother(provider, identity.externUid, userId)) throw refuse('Extern uid has already been taken');
    },
    async record(user, identity) {
      const provider = await providerOf(identity.groupIdForSaml);
      if (!(await identities.record(provider, user.id, identity.externUid))) throw refuse('Extern uid has already been taken');
    },
    remove: (userId) => identities.removeAllOfUser(userId),
  };
}

/**
 * What other plugins may use of group SAML: its events. Memberships it grants go through
 * core's member service, which announces them.
 */
import { defineEvent } from '@forgekit/kernel';

/** A user's identity at a top-level group's SAML provider. */
export interface SamlIdentityLinked {
  userId: number;
  /** The top-level group whose provider it is. */
  groupId: number;
  samlProviderId: number;
  externUid: string;
}

export const samlEvents = {
  /**
   * A user got an identity at a group's provider (a first sign-in through it, or an administrator's
   * `provider=group_saml` on `POST`/`PUT /users`), or its extern uid changed that way: the group
   * provisioned the user (GitLab's `provisioned_by_group`).
   */
  identityLinked: defineEvent<SamlIdentityLinked>('saml-identity.linked'),
};

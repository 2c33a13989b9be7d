/**
 * A top-level group's SAML provider (GitLab's `SamlProvider`): whether SAML is enabled, the
 * identity provider's sign-in URL, the fingerprint of its signing certificate, and the level
 * a user signing in for the first time gets.
 */
import { badRequest, notFound, validationFailed } from '@forgekit/kernel';
import type { Namespace } from '@forgekit/plugin-core/contracts';
import type { SamlProviderRow } from '../entities/saml-provider.js';
import type { ProviderSettings, ProviderStore } from './provider-store.js';

/** A SHA-1 or SHA-256 fingerprint: 40 or 64 hex digits, optionally in colon-separated pairs. */
const FINGERPRINT = /^(?:[0-9a-f]{2}(?::?[0-9a-f]{2}){19}|[0-9a-f]{2}(?::?[0-9a-f]{2}){31})$/i;

function isHttpsUrl(text: string) {
  try {
    return new URL(text).protocol === 'https:';
  } catch {
    return false;
  }
}

export function createProviderService(store: ProviderStore) {
  function validate(settings: Partial<ProviderSettings>, creating: boolean) {
    const errors: Record<string, string[]> = {};
    if (settings.ssoUrl !== undefined ? !settings.ssoUrl.trim() : creating) errors.sso_url = ["can't be blank"];
    else if (settings.ssoUrl !== undefined && !isHttpsUrl(settings.ssoUrl)) errors.sso_url = ['is blocked: Only allowed schemes are https'];
    if (settings.certificateFingerprint !== undefined ? !settings.certificateFingerprint.trim() : creating) errors.certificate_fingerprint = ["can't be blank"];
    else if (settings.certificateFingerprint !== undefined && !FINGERPRINT.test(settings.certificateFingerprint.trim()))
      errors.certificate_fingerprint = ['must be 40 or 64 hex characters, with or without colons'];
    if (Object.keys(errors).length > 0) throw validationFailed(errors);
  }

  return {
    /** The group's provider, or undefined. */
    ofGroup: (groupId: number) => store.ofGroup(groupId),

    async require(groupId: number): Promise<SamlProviderRow> {
      const provider = await store.ofGroup(groupId);
      if (!provider) throw notFound('SAML Provider');
      return provider;
    },

    /** Creates or changes the group's provider. */
    async save(group: Namespace, settings: Partial<ProviderSettings>): Promise<SamlProviderRow> {
      if (group.parentId !== null) throw badRequest('SAML can only be configured for a top-level group');
      const existing = await store.ofGroup(group.id);
      validate(settings, !existing);
      const clean = { ...settings, ...(settings.certificateFingerprint ? { certificateFingerprint: settings.certificateFingerprint.trim() } : {}) };
      if (existing) await store.update(existing.id, clean);
      else
        await store.insert(group.id, {
          enabled: clean.enabled ?? true,
          ssoUrl: clean.ssoUrl!,
          certificateFingerprint: clean.certificateFingerprint!,
          defaultMembershipRole: clean.defaultMembershipRole ?? 10,
        });
      return (await store.ofGroup(group.id))!;
    },

    remove: (provider: SamlProviderRow) => store.remove(provider.id),
  };
}

export type ProviderService = ReturnType<typeof createProviderService>;

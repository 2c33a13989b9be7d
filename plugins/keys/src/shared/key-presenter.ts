/** GitLab's key entities: SSHKey, DeployKey, DeployKeysProject, and the lookup's keys with their user. */
import type { KeyRow } from '../entities/key.js';
import type { DeployKeyProjectRow } from '../entities/deploy-key-project.js';

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

/** The instance's host name, as `Gitlab.config.gitlab.host`. */
const hostOf = (externalUrl: string) => new URL(externalUrl).hostname;

/**
 * The key as GitLab publishes it: the comment (often an email address) gives way to the
 * owner's name and the instance's host.
 */
export function publishableKey(key: Pick<KeyRow, 'key'>, ownerName: string | null, externalUrl: string) {
  return [...key.key.split(/\s+/).slice(0, 2), `${ownerName ?? ''} (${hostOf(externalUrl)})`].join(' ');
}

/** `Entities::SSHKey`. */
export function sshKeyBody(key: KeyRow, ownerName: string | null, externalUrl: string) {
  return {
    id: key.id,
    title: key.title,
    created_at: iso(key.createdAt),
    expires_at: iso(key.expiresAt),
    last_used_at: iso(key.lastUsedAt),
    key: publishableKey(key, ownerName, externalUrl),
    usage_type: key.usageType,
  };
}

/** `Entities::DeployKey`: the key as stored, and its fingerprints. */
export function deployKeyBody(key: KeyRow) {
  const body: Record<string, unknown> = {
    id: key.id,
    title: key.title,
    created_at: iso(key.createdAt),
    expires_at: iso(key.expiresAt),
    last_used_at: iso(key.lastUsedAt),
    key: key.key,
    usage_type: key.usageType,
  };
  if (key.fingerprint) body.fingerprint = key.fingerprint;
  body.fingerprint_sha256 = `SHA256:${key.fingerprintSha256}`;
  return body;
}

/** `Entities::DeployKeysProject`: the deploy key, and whether it may push to this project. */
export function deployKeysProjectBody(key: KeyRow, link: Pick<DeployKeyProjectRow, 'canPush'>) {
  return { ...deployKeyBody(key), can_push: link.canPush };
}

/** A `deploy_keys_projects` row as the lookup shows it. */
export function deployKeysProjectRecord(link: DeployKeyProjectRow) {
  return {
    id: link.id,
    deploy_key_id: link.deployKeyId,
    project_id: link.projectId,
    created_at: iso(link.createdAt),
    updated_at: iso(link.updatedAt),
    can_push: link.canPush,
  };
}

/** The user fields of `GET /keys/:id`: the document gives this answer fewer than the fingerprint lookup. */
const KEY_BY_ID_USER_FIELDS = [
  'id',
  'username',
  'name',
  'state',
  'avatar_url',
  'web_url',
  'created_at',
  'bio',
  'location',
  'public_email',
  'linkedin',
  'twitter',
  'website_url',
  'organization',
] as const;

/** The user fields of `GET /keys?fingerprint=` for a user's key. */
const FINGERPRINT_USER_FIELDS = [
  ...KEY_BY_ID_USER_FIELDS,
  'last_sign_in_at',
  'confirmed_at',
  'last_activity_on',
  'email',
  'theme_id',
  'color_scheme_id',
  'projects_limit',
  'current_sign_in_at',
  'identities',
  'can_create_group',
  'can_create_project',
  'two_factor_enabled',
  'external',
  'private_profile',
] as const;

export type LookupView = 'by-id' | 'fingerprint';

/** The key's user, from core's `UserPublic` body, with the fields the view shows. */
export function lookupUserBody(publicUser: Record<string, unknown> | null, view: LookupView, kind: KeyRow['kind']) {
  if (!publicUser) return null;
  const fields = view === 'by-id' ? KEY_BY_ID_USER_FIELDS : FINGERPRINT_USER_FIELDS;
  const body: Record<string, unknown> = Object.fromEntries(fields.map((field) => [field, publicUser[field] ?? null]));
  if (view === 'fingerprint' && kind === 'deploy') Object.assign(body, { shared_runners_minutes_limit: null, extra_shared_runners_minutes_limit: null });
  return body;
}

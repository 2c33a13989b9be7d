/**
 * GitLab's badge URL validation (`addressable_url`): present, http or https, a well-formed URL
 * with a sensible host; the texts of its URL blocker. Placeholders are read as plain words,
 * so `https://%{service_pages_domain}/...` is as valid as the URL it renders to.
 */
import { isIP } from 'node:net';
import { longerThan, TEXT_LIMIT, tooLongMessage } from '@forgekit/kernel';
import { withoutPlaceholders } from './placeholders.js';

export const SCHEMES = ['http', 'https'] as const;
/** Width of the name column (GitLab's `string` column, limit 255). */
export const NAME_LIMIT = 255;

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/** Why a URL (already stripped) is not acceptable, as the model reports it, or null. */
export function urlError(url: string | null): string | null {
  if (url === null || url === '') return 'must be a valid URL';
  if (longerThan(url, TEXT_LIMIT)) return tooLongMessage(TEXT_LIMIT);
  const blocked = (reason: string) => `is blocked: ${reason}`;
  if (/[\r\n\t]/.test(url)) return blocked('URI is invalid');
  const probe = withoutPlaceholders(url);
  const scheme = SCHEME.exec(probe)?.[1]?.toLowerCase();
  if (!scheme || !(SCHEMES as readonly string[]).includes(scheme)) return blocked(`Only allowed schemes are ${SCHEMES.join(', ')}`);
  let parsed: URL;
  try {
    parsed = new URL(probe);
  } catch {
    return blocked('URI is invalid');
  }
  const host = parsed.hostname;
  if (!host.startsWith('[') && !isIP(host) && !/^[\p{L}\p{N}]/u.test(host)) return blocked('Hostname or IP address invalid');
  return null;
}

export interface BadgeFields {
  linkUrl: string | null;
  imageUrl: string | null;
  name: string | null;
}

/** The model's errors, in GitLab's order (`link_url`, `image_url`), or null when the badge is valid. */
export function badgeErrors(badge: BadgeFields): Record<string, string[]> | null {
  const errors: Record<string, string[]> = {};
  const link = urlError(badge.linkUrl);
  if (link) errors.link_url = [link];
  const image = urlError(badge.imageUrl);
  if (image) errors.image_url = [image];
  if (badge.name !== null && longerThan(badge.name, NAME_LIMIT)) errors.name = [tooLongMessage(NAME_LIMIT)];
  return Object.keys(errors).length > 0 ? errors : null;
}

/** GitLab's checks on a receptive agent's address: the URL blocker's texts and the host rule. */
import { isIP } from 'node:net';

export const AGENT_URL_SCHEMES = ['grpc', 'grpcs'] as const;

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/** Why `url` (already stripped) is not acceptable, as the model reports it, or null. */
export function urlError(url: string): string | null {
  if (url === '') return 'Url must be a valid URL';
  const blocked = (reason: string) => `Url is blocked: ${reason}`;
  if (/[\r\n]/.test(url)) return blocked('URI is invalid');
  const scheme = SCHEME.exec(url)?.[1];
  let parsed: URL | null = null;
  if (scheme) {
    try {
      parsed = new URL(url);
    } catch {
      return blocked('URI is invalid');
    }
  }
  if (!scheme || !parsed || !(AGENT_URL_SCHEMES as readonly string[]).includes(scheme)) {
    return blocked(`Only allowed schemes are ${AGENT_URL_SCHEMES.join(', ')}`);
  }
  const host = parsed.hostname;
  if (host && !host.startsWith('[') && !isIP(host) && !/^[\p{L}\p{N}]/u.test(host)) return blocked('Hostname or IP address invalid');
  return null;
}

const REG_NAME = /^(?:%[0-9A-Fa-f]{2}|[!$&-.0-9;=A-Z_a-z~])+$/;
const IP_LITERAL = /^\[[0-9A-Fa-f:.]+\]$/;

/** A bare host name or address: no scheme, port, user or path. */
export const isValidHost = (value: string) => REG_NAME.test(value) || IP_LITERAL.test(value);

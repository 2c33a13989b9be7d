/**
 * GitLab's URL blocker for hook targets: only http and https; every address a host resolves to
 * is checked against loopback, private, link-local and unique-local networks unless local
 * requests are allowed; `outbound_local_requests_whitelist` exempts hosts, addresses and
 * networks, and `deny_all_requests_except_allowed` refuses everything else. The delivery
 * connects to the address that was checked, so a second DNS answer cannot point elsewhere.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

export interface OutboundPolicy {
  allowLocal: boolean;
  allowlist: readonly string[];
  denyAll: boolean;
}

export class BlockedUrlError extends Error {}

const LOCAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  LOCAL.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  LOCAL.addSubnet(network, prefix, 'ipv6');

const familyOf = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');
/** `::ffff:127.0.0.1` is 127.0.0.1. */
const unmapped = (address: string) => (address.toLowerCase().startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address);

function allowlisted(host: string, address: string, allowlist: readonly string[]) {
  for (const entry of allowlist) {
    const [network, prefix] = entry.split('/');
    if (prefix !== undefined && isIP(network!)) {
      const list = new BlockList();
      list.addSubnet(network!, Number(prefix), familyOf(network!));
      if (list.check(address, familyOf(address))) return true;
    } else if (entry.toLowerCase() === host.toLowerCase() || entry === address) return true;
  }
  return false;
}

/** The parsed URL, or a `BlockedUrlError` for what no hook may target. */
export function parseTarget(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new BlockedUrlError('Only allowed schemes are http, https');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new BlockedUrlError('Only allowed schemes are http, https');
  if (!parsed.hostname) throw new BlockedUrlError('Host cannot be resolved or invalid');
  return parsed;
}

/** Resolves the URL's host and checks every address; answers the address to connect to. */
export async function checkedAddress(url: URL, policy: OutboundPolicy): Promise<{ address: string; family: 4 | 6 }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw new BlockedUrlError('Host cannot be resolved or invalid');
    }
  }
  if (addresses.length === 0) throw new BlockedUrlError('Host cannot be resolved or invalid');
  for (const { address } of addresses) {
    const plain = unmapped(address);
    if (allowlisted(host, plain, policy.allowlist)) continue;
    if (policy.denyAll) throw new BlockedUrlError(`URL is blocked: ${host} is not in the allowlist`);
    if (!policy.allowLocal && LOCAL.check(plain, familyOf(plain))) throw new BlockedUrlError('Requests to the local network are not allowed');
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

import { RAILS_TIME_ZONES } from './rails-time-zones.js';

/** Lower-cased canonical IANA names, to refuse a known zone in the wrong case. */
let canonicalByLowerCase: Map<string, string> | undefined;

function canonicalNames() {
  canonicalByLowerCase ??= new Map(Intl.supportedValuesOf('timeZone').map((zone) => [zone.toLowerCase(), zone]));
  return canonicalByLowerCase;
}

const known = new Map<string, boolean>();

/**
 * Whether `zone` is an IANA identifier as TZInfo accepts it: the runtime knows it
 * (aliases such as `US/Pacific` included) and it is spelled in its own case.
 */
function isIanaZone(zone: string): boolean {
  let answer = known.get(zone);
  if (answer !== undefined) return answer;
  answer = false;
  if (zone.split('/').every((part) => /^[A-Z]/.test(part))) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      const canonical = canonicalNames().get(zone.toLowerCase());
      answer = canonical === undefined || canonical === zone;
    } catch {
      answer = false;
    }
  }
  known.set(zone, answer);
  return answer;
}

/** The IANA zone a `cron_timezone` names (a Rails name such as `Pacific Time (US & Canada)`, or an IANA name); null when unknown. */
export function ianaZoneFor(name: string): string | null {
  const zone = Object.hasOwn(RAILS_TIME_ZONES, name) ? RAILS_TIME_ZONES[name]! : name;
  return isIanaZone(zone) ? zone : null;
}

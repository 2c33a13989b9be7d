/**
 * Domain ownership by DNS (GitLab's `VerifyPagesDomainService`): a TXT record on the domain or on
 * `_service-pages-verification-code.<domain>` that holds the domain's code. GitLab's spelling of
 * the record name and value is accepted too, so records made for GitLab keep working.
 */
import type { TxtResolver } from '../contracts.js';

/** How long a successful verification keeps a domain enabled. */
export const VERIFICATION_PERIOD_MS = 7 * 24 * 60 * 60 * 1000;
/** Domains are verified again in the background when they have less than this left. */
export const REVERIFY_WITHIN_MS = 3 * 24 * 60 * 60 * 1000;

const RECORD_NAMES = ['_service-pages-verification-code', '_gitlab-pages-verification-code'];
const VALUE_PREFIXES = ['service-pages-verification-code=', 'gitlab-pages-verification-code='];

export const verificationRecordName = (domain: string) => `${RECORD_NAMES[0]}.${domain}`;

/** Whether any TXT record on the names checked holds `code`. */
export async function holdsCode(resolveTxt: TxtResolver, domain: string, code: string): Promise<boolean> {
  const names = [domain, ...RECORD_NAMES.map((name) => `${name}.${domain}`)];
  const answers = await Promise.all(names.map((name) => resolveTxt(name).catch(() => [] as string[][])));
  const accepted = new Set([code, ...VALUE_PREFIXES.map((prefix) => `${prefix}${code}`)]);
  return answers.some((records) =>
    records.some((chunks) =>
      chunks
        .join('')
        .split(/\s+/)
        .some((word) => accepted.has(word)),
    ),
  );
}

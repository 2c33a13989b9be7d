/** GitLab's `PagesDomain` and `PagesDomainBasic` entities. */
import type { PagesDomainRow } from '../entities/pages-domain.js';
import { certificateText, isExpired, oneLineName, parseChain } from './certificate.js';

const leafOf = (row: PagesDomainRow) => (row.certificate ? (parseChain(row.certificate)?.[0] ?? null) : null);

function common(row: PagesDomainRow) {
  return {
    domain: row.domain,
    url: `${row.certificate ? 'https' : 'http'}://${row.domain}`,
  };
}

function verification(row: PagesDomainRow) {
  return {
    verified: row.verifiedAt !== null,
    verification_code: row.verificationCode,
    enabled_until: row.enabledUntil,
    auto_ssl_enabled: row.autoSslEnabled,
    certificate_source: row.certificateSource,
  };
}

/** A project's domain; `certificate` only when one is stored. */
export function presentDomain(row: PagesDomainRow) {
  const leaf = leafOf(row);
  return {
    ...common(row),
    ...verification(row),
    ...(leaf && {
      certificate: { subject: oneLineName(leaf.subject), expired: isExpired(leaf), certificate: row.certificate, certificate_text: certificateText(leaf) },
    }),
  };
}

/** The administrator's list: with `project_id`, and the certificate as `certificate_expiration`. */
export function presentDomainBasic(row: PagesDomainRow) {
  const leaf = leafOf(row);
  return {
    ...common(row),
    project_id: row.projectId,
    ...verification(row),
    ...(leaf && { certificate_expiration: { expired: isExpired(leaf), expiration: new Date(leaf.validTo) } }),
  };
}

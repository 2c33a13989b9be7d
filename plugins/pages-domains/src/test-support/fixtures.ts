/** Certificates and keys made once with openssl for the tests (see `test-fixtures/`). */
import { readFileSync } from 'node:fs';

const read = (name: string) => readFileSync(new URL(`../../test-fixtures/${name}`, import.meta.url), 'utf8');

export const pem = {
  /** Self-signed, `/O=Example, Inc./OU=Sites/CN=site.example.com`, valid until 2126. */
  site: { certificate: read('site.pem'), key: read('site.key') },
  other: { certificate: read('other.pem'), key: read('other.key') },
  /** `*.wild.example.com`. */
  wild: { certificate: read('wild.pem'), key: read('wild.key') },
  /** Self-signed for old.example.com, valid during 2020 only. */
  expired: { certificate: read('expired.pem'), key: read('expired.key') },
  /** chain.example.com (EC P-256), issued by `ca`. */
  leaf: { certificate: read('leaf.pem'), key: read('leaf.key') },
  ca: read('ca.pem'),
};

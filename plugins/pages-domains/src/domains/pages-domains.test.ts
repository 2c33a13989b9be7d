import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { createPagesDomainsPlugin, VERIFY_JOB } from '../plugin.js';
import { pem } from '../test-support/fixtures.js';

/** TXT records the stub resolver answers, by name. */
const dns = new Map<string, string[][]>();
const resolveTxt = async (name: string) => {
  const records = dns.get(name);
  if (!records) throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  return records;
};

describe('pages domains', () => {
  let app: TestApp;
  let base: string;
  const create = (body: Record<string, unknown> | FormData, token = 'maintainer') => app.post(`${base}/pages/domains`, body, { token });
  const setting = (values: Record<string, unknown>) => app.put('/api/v4/application/settings', values, { token: 'admin' });

  beforeAll(async () => {
    app = await createTestApp({ plugins: [createPagesDomainsPlugin({ resolveTxt })] });
    base = `/api/v4/projects/${app.project.id}`;
  });
  afterAll(() => app?.close());
  beforeEach(() => dns.clear());

  describe('POST /projects/:id/pages/domains', () => {
    it('creates a domain without a certificate: http URL, unverified, a 32-hex code', async () => {
      const res = await create({ domain: 'Plain.Example.com' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        domain: 'plain.example.com',
        url: 'http://plain.example.com',
        verified: false,
        verification_code: expect.stringMatching(/^[0-9a-f]{32}$/),
        enabled_until: null,
        auto_ssl_enabled: false,
        certificate_source: 'user_provided',
      });
    });

    it('takes the certificate and key as strings and describes the real certificate', async () => {
      const res = await create({ domain: 'site.example.com', ...pem.site, auto_ssl_enabled: true });
      expect(res.status).toBe(201);
      expect(res.body.url).toBe('https://site.example.com');
      expect(res.body.auto_ssl_enabled).toBe(true);
      expect(res.body.certificate.subject).toBe('/O=Example, Inc./OU=Sites/CN=site.example.com');
      expect(res.body.certificate.expired).toBe(false);
      expect(res.body.certificate.certificate).toBe(pem.site.certificate);
      expect(res.body.certificate.certificate_text).toContain('Subject: O=Example, Inc., OU=Sites, CN=site.example.com');
      expect(res.body.certificate.certificate_text).toContain('DNS:site.example.com');
    });

    it('takes the certificate and key as multipart files, and a wildcard certificate covers the domain', async () => {
      const form = new FormData();
      form.append('domain', 'a.wild.example.com');
      form.append('certificate', new Blob([pem.wild.certificate]), 'cert.pem');
      form.append('key', new Blob([pem.wild.key]), 'key.pem');
      const res = await create(form);
      expect(res.status).toBe(201);
      expect(res.body.certificate.subject).toBe('/CN=*.wild.example.com');
    });

    it('accepts an expired certificate and says so', async () => {
      const res = await create({ domain: 'old.example.com', ...pem.expired });
      expect(res.status).toBe(201);
      expect(res.body.certificate.expired).toBe(true);
    });

    it('accepts a chain ordered from the leaf up, and refuses one that misses its intermediates or is out of order', async () => {
      const incomplete = await create({ domain: 'chain.example.com', ...pem.leaf });
      expect(incomplete.status).toBe(400);
      expect(incomplete.body).toEqual({ message: { certificate: ['misses intermediates'] } });
      const reversed = await create({ domain: 'chain.example.com', certificate: pem.ca + pem.leaf.certificate, key: pem.leaf.key });
      expect(reversed.status).toBe(400);
      const ordered = await create({ domain: 'chain.example.com', certificate: pem.leaf.certificate + pem.ca, key: pem.leaf.key });
      expect(ordered.status).toBe(201);
      expect(ordered.body.certificate.subject).toBe('/CN=chain.example.com');
    });

    it('refuses a key of another certificate, unparseable PEM, and a certificate for another name', async () => {
      expect((await create({ domain: 'mismatch.example.com', certificate: pem.site.certificate, key: pem.other.key })).body).toEqual({
        message: { key: ["doesn't match the certificate"], certificate: ['does not cover the domain mismatch.example.com'] },
      });
      expect((await create({ domain: 'site2.example.com', certificate: 'nonsense', key: 'nonsense' })).body).toEqual({
        message: { certificate: ['must be a valid PEM certificate'], key: ['must be a valid PEM private key'] },
      });
      const wrongName = await create({ domain: 'other-name.example.com', ...pem.site });
      expect(wrongName.status).toBe(400);
      expect(wrongName.body).toEqual({ message: { certificate: ['does not cover the domain other-name.example.com'] } });
    });

    it('refuses a certificate without its key with the framework error', async () => {
      const res = await create({ domain: 'half.example.com', certificate: pem.site.certificate });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'certificate, key provide all or none of parameters' });
    });

    it('refuses a taken domain regardless of case, a bad hostname, and a missing domain', async () => {
      expect(await create({ domain: 'PLAIN.example.com' })).toMatchObject({ status: 400, body: { message: { domain: ['has already been taken'] } } });
      expect(await create({ domain: 'not a host' })).toMatchObject({ status: 400, body: { message: { domain: ['is not a valid hostname'] } } });
      expect(await create({})).toMatchObject({ status: 400, body: { error: 'domain is missing' } });
    });

    it('reserves the Pages host and its subdomains', async () => {
      await setting({ pages_host: 'pages.example.io' });
      const res = await create({ domain: 'me.pages.example.io' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: { domain: ['Subdomains of the Pages root domain pages.example.io are reserved and cannot be used as custom Pages domains.'] },
      });
      await setting({ pages_host: '' });
    });

    it('caps the domains of a project when the setting says so', async () => {
      const count = (await app.get(`${base}/pages/domains`, { token: 'maintainer', query: { per_page: 100 } })).body.length;
      await setting({ max_pages_custom_domains_per_project: count });
      const res = await create({ domain: 'one-too-many.example.com' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: { base: [`This project reached the limit of custom domains. (Max ${count})`] } });
      await setting({ max_pages_custom_domains_per_project: 0 });
    });

    it('answers 403 to a Developer and 404 to a non-member', async () => {
      expect((await create({ domain: 'dev.example.com' }, 'developer')).status).toBe(403);
      expect(await create({ domain: 'dev.example.com' }, 'nonMember')).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    });
  });

  describe('GET', () => {
    it("lists a project's domains by name, paginated", async () => {
      const res = await app.get(`${base}/pages/domains`, { token: 'maintainer', query: { per_page: 2 } });
      expect(res.status).toBe(200);
      expect(res.body.map((d: { domain: string }) => d.domain)).toEqual(['a.wild.example.com', 'chain.example.com']);
      expect(res.headers.get('x-total')).toBe('5');
    });

    it('gets one domain by name with its dots, or 404 PagesDomain Not Found', async () => {
      expect((await app.get(`${base}/pages/domains/site.example.com`, { token: 'maintainer' })).body.domain).toBe('site.example.com');
      expect(await app.get(`${base}/pages/domains/nowhere.example.com`, { token: 'maintainer' })).toMatchObject({
        status: 404,
        body: { message: '404 PagesDomain Not Found' },
      });
      expect((await app.get(`${base}/pages/domains/site.example.com`, { token: 'developer' })).status).toBe(403);
    });

    it('gives administrators every domain with project_id and certificate_expiration', async () => {
      const res = await app.get('/api/v4/pages/domains', { token: 'admin', query: { domain: 'OLD.example.com' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        {
          domain: 'old.example.com',
          url: 'https://old.example.com',
          project_id: app.project.id,
          verified: false,
          verification_code: expect.stringMatching(/^[0-9a-f]{32}$/),
          enabled_until: null,
          auto_ssl_enabled: false,
          certificate_source: 'user_provided',
          certificate_expiration: { expired: true, expiration: '2021-01-01T00:00:00.000Z' },
        },
      ]);
      expect((await app.get('/api/v4/pages/domains', { token: 'admin', query: { domain: 'none.example.com' } })).body).toEqual({
        message: '404 PagesDomain Not Found',
      });
      expect((await app.get('/api/v4/pages/domains', { token: 'admin' })).body).toHaveLength(5);
      expect((await app.get('/api/v4/pages/domains', { token: 'owner' })).status).toBe(403);
    });
  });

  describe('PUT /projects/:id/pages/domains/:domain', () => {
    it('adds a certificate, keeps the stored key when only the certificate changes, and removes both when blank', async () => {
      const added = await app.put(`${base}/pages/domains/plain.example.com`, { certificate: pem.site.certificate, key: pem.site.key }, { token: 'maintainer' });
      expect(added.status).toBe(400);
      expect(added.body).toEqual({ message: { certificate: ['does not cover the domain plain.example.com'] } });

      const sameKey = await app.put(`${base}/pages/domains/site.example.com`, { certificate: pem.site.certificate }, { token: 'maintainer' });
      expect(sameKey.status).toBe(200);
      const otherCert = await app.put(`${base}/pages/domains/site.example.com`, { certificate: pem.other.certificate }, { token: 'maintainer' });
      expect(otherCert.body.message.key).toEqual(["doesn't match the certificate"]);

      const removed = await app.put(`${base}/pages/domains/site.example.com`, { certificate: '', key: '' }, { token: 'maintainer' });
      expect(removed.status).toBe(200);
      expect(removed.body.url).toBe('http://site.example.com');
      expect(removed.body).not.toHaveProperty('certificate');
    });

    it('changes auto_ssl_enabled alone', async () => {
      const res = await app.put(`${base}/pages/domains/plain.example.com`, { auto_ssl_enabled: true }, { token: 'maintainer' });
      expect(res.body.auto_ssl_enabled).toBe(true);
      expect(res.body.url).toBe('http://plain.example.com');
    });
  });

  describe('verification', () => {
    const verify = (domain: string) => app.put(`${base}/pages/domains/${domain}/verify`, {}, { token: 'maintainer' });
    const codeOf = async (domain: string) => (await app.get(`${base}/pages/domains/${domain}`, { token: 'maintainer' })).body.verification_code as string;

    it('fails without the record, then verifies through the TXT record and enables the domain for 7 days', async () => {
      expect(await verify('plain.example.com')).toMatchObject({ status: 400, body: { message: "Couldn't verify plain.example.com" } });
      const code = await codeOf('plain.example.com');
      dns.set('_service-pages-verification-code.plain.example.com', [[`service-pages-verification-code=${code}`]]);
      const before = Date.now();
      const res = await verify('plain.example.com');
      expect(res.status).toBe(200);
      expect(res.body.verified).toBe(true);
      const until = Date.parse(res.body.enabled_until);
      expect(until).toBeGreaterThanOrEqual(before + 7 * 86_400_000);
    });

    it("accepts the bare code on the domain itself and GitLab's record spelling", async () => {
      dns.set('old.example.com', [['v=spf1 ', await codeOf('old.example.com')]]);
      expect((await verify('old.example.com')).body.verified).toBe(true);
      dns.clear();
      dns.set('_gitlab-pages-verification-code.chain.example.com', [[`gitlab-pages-verification-code=${await codeOf('chain.example.com')}`]]);
      expect((await verify('chain.example.com')).body.verified).toBe(true);
    });

    it('loses verified when the record goes, and keeps enabled_until until it passes', async () => {
      const res = await verify('old.example.com');
      expect(res).toMatchObject({ status: 400, body: { message: "Couldn't verify old.example.com" } });
      const after = (await app.get(`${base}/pages/domains/old.example.com`, { token: 'maintainer' })).body;
      expect(after.verified).toBe(false);
      expect(after.enabled_until).not.toBeNull();
    });

    it('runs in the background job for the domains due', async () => {
      dns.set('_service-pages-verification-code.a.wild.example.com', [[await codeOf('a.wild.example.com')]]);
      await app.kernel.jobs.run(VERIFY_JOB, {});
      expect((await app.get(`${base}/pages/domains/a.wild.example.com`, { token: 'maintainer' })).body.verified).toBe(true);
    });

    it('always succeeds when domain verification is off', async () => {
      await setting({ pages_domain_verification_enabled: false });
      const res = await verify('site.example.com');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ verified: true, enabled_until: null });
      await setting({ pages_domain_verification_enabled: true });
    });
  });

  describe('Pages disabled and deletion', () => {
    it('answers 404 on every route while Pages is disabled', async () => {
      await setting({ pages_enabled: false });
      expect(await app.get(`${base}/pages/domains`, { token: 'maintainer' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
      expect((await app.get('/api/v4/pages/domains', { token: 'admin' })).status).toBe(404);
      expect((await create({ domain: 'off.example.com' })).status).toBe(404);
      await setting({ pages_enabled: true });
    });

    it('deletes a domain: 204, then 404', async () => {
      expect((await app.delete(`${base}/pages/domains/chain.example.com`, { token: 'developer' })).status).toBe(403);
      const res = await app.delete(`${base}/pages/domains/chain.example.com`, { token: 'maintainer' });
      expect(res.status).toBe(204);
      expect((await app.get(`${base}/pages/domains/chain.example.com`, { token: 'maintainer' })).status).toBe(404);
    });

    it('removes the domains of a deleted project', async () => {
      const project = (await app.post('/api/v4/projects', { name: 'doomed' }, { token: 'maintainer' })).body;
      expect((await app.post(`/api/v4/projects/${project.id}/pages/domains`, { domain: 'doomed.example.com' }, { token: 'maintainer' })).status).toBe(201);
      expect((await app.delete(`/api/v4/projects/${project.id}`, { token: 'maintainer' })).status).toBe(202);
      expect((await app.get('/api/v4/pages/domains', { token: 'admin', query: { domain: 'doomed.example.com' } })).status).toBe(404);
    });
  });
});

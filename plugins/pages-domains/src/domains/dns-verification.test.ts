import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagesDomainsPlugin } from '../plugin.js';
import { startDnsStub } from '../test-support/dns-stub.js';

describe('verification through node:dns and the dnsServer setting', () => {
  let app: TestApp;
  let dns: Awaited<ReturnType<typeof startDnsStub>>;
  const path = () => `/api/v4/projects/${app.project.id}/pages/domains`;

  beforeAll(async () => {
    dns = await startDnsStub();
    app = await createTestApp({ plugins: [pagesDomainsPlugin], config: { plugins: { 'pages-domains': { dnsServer: dns.server } } } });
  });
  afterAll(async () => {
    await app?.close();
    await dns?.close();
  });

  it('verifies a domain once its TXT record is served, and not before', async () => {
    const { verification_code: code } = (await app.post(path(), { domain: 'dns.example.com' }, { token: 'maintainer' })).body;
    expect(await app.put(`${path()}/dns.example.com/verify`, {}, { token: 'maintainer' })).toMatchObject({
      status: 400,
      body: { message: "Couldn't verify dns.example.com" },
    });
    dns.records.set('_service-pages-verification-code.dns.example.com', [`service-pages-verification-code=${code}`]);
    const res = await app.put(`${path()}/dns.example.com/verify`, {}, { token: 'maintainer' });
    expect(res.status).toBe(200);
    expect(res.body.verified).toBe(true);
  });
});

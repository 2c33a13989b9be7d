import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, failureOf, type Api } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';

const fixture = (name: string) => readFileSync(new URL(`../plugins/pages-domains/test-fixtures/${name}`, import.meta.url), 'utf8');
const site = { certificate: fixture('site.pem'), key: fixture('site.key') };

/** A team puts its documentation site on its own domain, through @gitbeaker/rest and plain requests. */
describe('Pages domains through @gitbeaker/rest', () => {
  let server: ListeningServer;
  let admin: Api;
  let project: { id: number };
  const call = (method: string, path: string, body?: Record<string, unknown>) =>
    fetch(`${server.url}/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': server.rootToken, 'Content-Type': 'application/json' },
      body: body && JSON.stringify(body),
    });

  beforeAll(async () => {
    server = await startListeningServer();
    admin = clientFor(server, server.rootToken);
    const group = (await admin.Groups.create('Docs', 'docs')) as unknown as { id: number };
    project = (await admin.Projects.create({ name: 'Site', path: 'site', namespaceId: group.id })) as unknown as { id: number };
  });
  afterAll(() => server?.close());

  it('adds a domain with its certificate and key, and shows the real certificate', async () => {
    const domain = await admin.PagesDomains.create(project.id, 'site.example.com', { ...site });
    expect(domain).toMatchObject({ domain: 'site.example.com', url: 'https://site.example.com', verified: false });
    expect(domain.verification_code).toMatch(/^[0-9a-f]{32}$/);
    expect(domain.certificate).toMatchObject({ subject: '/O=Example, Inc./OU=Sites/CN=site.example.com', expired: false });

    const shown = await admin.PagesDomains.show(project.id, 'site.example.com');
    expect(shown.certificate?.certificate).toBe(site.certificate);
  });

  it('refuses a certificate for another domain with the validation body', async () => {
    const failure = await failureOf(admin.PagesDomains.create(project.id, 'docs.example.com', { ...site }));
    expect(failure).toEqual({ status: 400, description: JSON.stringify({ certificate: ['does not cover the domain docs.example.com'] }) });
  });

  it("lists a project's domains, and every domain for an administrator with certificate_expiration", async () => {
    await admin.PagesDomains.create(project.id, 'plain.example.com');
    expect((await admin.PagesDomains.all({ projectId: project.id })).map((d) => d.domain)).toEqual(['plain.example.com', 'site.example.com']);
    const all = await admin.PagesDomains.all();
    expect(all).toHaveLength(2);
    expect(all.find((d) => d.domain === 'site.example.com')).toMatchObject({ project_id: project.id, certificate_expiration: { expired: false } });
  });

  it('removes the certificate and verifies the domain when verification is off', async () => {
    const edited = await admin.PagesDomains.edit(project.id, 'site.example.com', { certificate: '', key: '' });
    expect(edited.url).toBe('http://site.example.com');
    expect(edited).not.toHaveProperty('certificate');

    await admin.ApplicationSettings.edit({ pagesDomainVerificationEnabled: false });
    const verified = await call('PUT', `/projects/${project.id}/pages/domains/site.example.com/verify`);
    expect(verified.status).toBe(200);
    expect(await verified.json()).toMatchObject({ domain: 'site.example.com', verified: true });
  });

  it('deletes a domain, and answers 404 everywhere once Pages is disabled', async () => {
    await admin.PagesDomains.remove(project.id, 'plain.example.com');
    expect(await failureOf(admin.PagesDomains.show(project.id, 'plain.example.com'))).toEqual({ status: 404, description: '404 PagesDomain Not Found' });

    await admin.ApplicationSettings.edit({ pagesEnabled: false });
    expect(await failureOf(admin.PagesDomains.all({ projectId: project.id }))).toEqual({ status: 404, description: '404 Not found' });
    await admin.ApplicationSettings.edit({ pagesEnabled: true });
  });

  it("takes the project's domains with it when the project is deleted", async () => {
    await admin.Projects.remove(project.id);
    expect(await admin.PagesDomains.all()).toEqual([]);
  });
});

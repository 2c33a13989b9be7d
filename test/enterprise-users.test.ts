import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, type Api } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';
import { rest } from './support/rest.js';

/**
 * A company verifies its domain and finds its people as enterprise users, through @gitbeaker/rest
 * and plain requests (gitbeaker has no enterprise-users resource).
 */
describe('enterprise users through @gitbeaker/rest', () => {
  let server: ListeningServer;
  let admin: Api;
  let group: { id: number };
  let worker: { id: number };
  let workerToken: string;
  const call = (method: string, path: string, token: string | null, body?: unknown) => rest(server, method, path, token, body);

  beforeAll(async () => {
    server = await startListeningServer();
    admin = clientFor(server, server.rootToken);
    group = (await admin.Groups.create('Acme', 'acme')) as unknown as { id: number };
    const project = (await admin.Projects.create({ name: 'Site', path: 'site', namespaceId: group.id })) as unknown as { id: number };
    // Verification by DNS is off here, so the verify call succeeds without a record.
    await admin.ApplicationSettings.edit({ pagesDomainVerificationEnabled: false });
    await admin.PagesDomains.create(project.id, 'acme.test');
    expect((await call('PUT', `/projects/${project.id}/pages/domains/acme.test/verify`, server.rootToken)).body.verified).toBe(true);

    worker = (await admin.Users.create({ username: 'worker', name: 'Worker', email: 'worker@acme.test', password: 'Worker-Secret-123' })) as unknown as {
      id: number;
    };
    await admin.Users.create({ username: 'outsider', name: 'Outsider', email: 'outsider@example.com', password: 'Outsider-Secret-123' });
    workerToken = (await call('POST', `/users/${worker.id}/personal_access_tokens`, server.rootToken, { name: 'api', scopes: ['api'] })).body.token;
  });
  afterAll(() => server?.close());

  it('lists the users on the verified domain, without membership', async () => {
    const res = await call('GET', `/groups/${group.id}/enterprise_users`, server.rootToken);
    expect(res.status).toBe(200);
    expect(res.body.map((user: { username: string }) => user.username)).toEqual(['worker']);
  });

  it("follows the user's TOTP enrolment in two_factor_enabled, and lets the Owner disable it", async () => {
    const begun = await call('POST', '/user/two_factor', workerToken);
    expect(begun.status).toBe(201);
    const activated = await call('POST', '/user/two_factor/activate', workerToken, { otp_attempt: await generate({ secret: begun.body.secret }) });
    expect(activated.body).toEqual({ enabled: true, pending: false });
    expect((await admin.Users.show(worker.id)).two_factor_enabled).toBe(true);

    expect((await call('PATCH', `/groups/${group.id}/enterprise_users/${worker.id}/disable_two_factor`, server.rootToken)).status).toBe(204);
    expect((await admin.Users.show(worker.id)).two_factor_enabled).toBe(false);
  });

  it('changes the email on the domain without reconfirmation, and deletes the user', async () => {
    const changed = await call('PATCH', `/groups/${group.id}/enterprise_users/${worker.id}`, server.rootToken, { email: 'w@acme.test' });
    expect(changed).toMatchObject({ status: 200, body: { email: 'w@acme.test' } });
    expect((await admin.Users.show(worker.id)).email).toBe('w@acme.test');

    expect((await call('DELETE', `/groups/${group.id}/enterprise_users/${worker.id}`, server.rootToken)).status).toBe(204);
    expect((await call('GET', `/groups/${group.id}/enterprise_users`, server.rootToken)).body).toEqual([]);
  });
});

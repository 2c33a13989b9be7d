import type { Kernel } from '@forgekit/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreTokensRef, coreUsersRef } from '../contracts.js';
import { createSharedDatabaseApps, type SharedDatabaseApps } from '../testing/shared-database.js';

/** A process keeps what it found of a token only until another process writes: revocations and blocks are seen at once. */
describe('credentials kept between requests', () => {
  let shared: SharedDatabaseApps;
  let other: Kernel;

  beforeAll(async () => {
    shared = await createSharedDatabaseApps();
    other = await shared.kernelOnSameDatabase('other');
  });
  afterAll(async () => {
    await other?.stop();
    await shared?.close();
  });

  const user = (kernel: Kernel, secret: string) =>
    kernel
      .fetch(new Request('http://localhost/api/v4/user', { headers: { 'PRIVATE-TOKEN': secret } }))
      .then(async (res) => ({ status: res.status, body: await res.json() }));

  it('refuses a token another process revoked on the next request', async () => {
    const { app } = shared;
    const { token, secret } = await app.kernel.resolve(coreTokensRef).create({ userId: app.users.developer.id, name: 'kept', scopes: ['api'] });
    for (let i = 0; i < 3; i++) expect((await user(other, secret)).status).toBe(200);
    await app.kernel.resolve(coreTokensRef).revoke(token.id);
    expect(await user(other, secret)).toEqual({
      status: 401,
      body: { error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.' },
    });
  });

  it('refuses the token of a user another process blocked on the next request, and takes it again once unblocked', async () => {
    const { app } = shared;
    const { secret } = await app.kernel.resolve(coreTokensRef).create({ userId: app.users.reporter.id, name: 'kept', scopes: ['api'] });
    expect((await user(other, secret)).body).toMatchObject({ username: app.users.reporter.username });
    expect((await user(other, secret)).status).toBe(200);
    await app.kernel.resolve(coreUsersRef).update(app.users.reporter.id, { state: 'blocked' });
    expect(await user(other, secret)).toEqual({ status: 403, body: { message: '403 Forbidden - Your account has been blocked.' } });
    await app.kernel.resolve(coreUsersRef).update(app.users.reporter.id, { state: 'active' });
    expect((await user(other, secret)).status).toBe(200);
  });
});

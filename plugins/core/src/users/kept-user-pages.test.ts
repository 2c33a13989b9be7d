import type { Kernel } from '@forgekit/kernel';
import { statementsDuring } from '@forgekit/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { askKernel, createSharedDatabaseApps, type SharedDatabaseApps } from '../testing/shared-database.js';

const onPostgres = !!process.env.FORGEKIT_TEST_DATABASE_URL;

type Listed = { id: number; username: string; name: string; state: string };

/** A user list page seen by users who are not administrators may be kept under its change mark: another process's write is seen at once. */
describe('user list pages kept between reading requests', () => {
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

  const list = (secret: string, query = 'per_page=100') => askKernel(other, 'GET', `/users?${query}`, secret);
  const listed = async (query?: string) => {
    const response = await list(shared.app.tokens.developer, query);
    expect(response.status).toBe(200);
    return response.body as Listed[];
  };
  const named = async (username: string, query?: string) => (await listed(query)).find((user) => user.username === username);
  /** The statements over users `other` runs while `run` does. */
  const userReads = async (run: () => Promise<unknown>) => (await statementsDuring(other, run)).filter((sql) => /from `users`/.test(sql));
  const admin = (method: string, path: string, body?: unknown) => askKernel(shared.app.kernel, method, path, shared.app.tokens.admin, body);

  it.skipIf(onPostgres)('reads a page once while nothing is committed, whoever asks', async () => {
    const { tokens } = shared.app;
    // A token's use is written down now and then (its last_used_at) without the request waiting,
    // which moves the mark: both callers are seen first, and their writes land in order.
    for (const secret of [tokens.reporter, tokens.developer]) expect((await askKernel(other, 'GET', '/user', secret)).status).toBe(200);
    await vi.waitFor(async () => expect(await userReads(() => list(tokens.developer))).toEqual([]));
    // Another caller who is not an administrator is sent the same page.
    expect(await userReads(() => list(tokens.reporter))).toEqual([]);
    // Other filters, another page, and an administrator's view read their own.
    expect((await userReads(() => list(tokens.developer, 'per_page=100&username=guest'))).length).toBeGreaterThan(0);
    expect((await userReads(() => list(tokens.developer, 'per_page=2&page=2'))).length).toBeGreaterThan(0);
    for (let i = 0; i < 2; i++) expect((await userReads(() => list(tokens.admin))).length).toBeGreaterThan(0);
  });

  it("answers another process's new, renamed, blocked and deleted user on the next request", async () => {
    for (let i = 0; i < 2; i++) expect(await named('kept-user')).toBeUndefined();
    const created = await admin('POST', '/users', {
      username: 'kept-user',
      name: 'Kept User',
      email: 'kept-user@example.com',
      password: 'Kept-user-password-1',
    });
    expect(created.status).toBe(201);
    const id = (created.body as Listed).id;
    expect(id, JSON.stringify(created.body)).toEqual(expect.any(Number));
    expect(await named('kept-user')).toMatchObject({ id, name: 'Kept User', state: 'active' });
    expect((await list(shared.app.tokens.developer)).total).toBe(String((await listed()).length));

    expect((await admin('PUT', `/users/${id}`, { name: 'Renamed User' })).status).toBe(200);
    expect(await named('kept-user')).toMatchObject({ name: 'Renamed User' });

    expect(await named('kept-user', 'per_page=100&blocked=true')).toBeUndefined();
    expect((await admin('POST', `/users/${id}/block`)).status).toBe(201);
    expect(await named('kept-user')).toMatchObject({ state: 'blocked' });
    expect(await named('kept-user', 'per_page=100&blocked=true')).toMatchObject({ id });

    const deleted = await shared.app.kernel.fetch(
      new Request(`http://localhost/api/v4/users/${id}?hard_delete=true`, { method: 'DELETE', headers: { 'PRIVATE-TOKEN': shared.app.tokens.admin } }),
    );
    expect(deleted.status).toBe(204);
    expect(await named('kept-user')).toBeUndefined();
  });

  it('keeps a keyset page with its own next cursor', async () => {
    const query = 'pagination=keyset&per_page=2&order_by=id&sort=asc';
    const first = await listed(query);
    expect(first).toHaveLength(2);
    expect(await listed(query)).toEqual(first);
    const next = await other.fetch(new Request(`http://localhost/api/v4/users?${query}`, { headers: { 'PRIVATE-TOKEN': shared.app.tokens.developer } }));
    const link = next.headers.get('link') ?? '';
    expect(link).toMatch(/rel="next"/);
    const cursor = new URL(/<([^>]+)>; rel="next"/.exec(link)![1]!).searchParams.get('cursor');
    const second = await listed(`${query}&cursor=${encodeURIComponent(cursor!)}`);
    expect(second[0]!.id).toBeGreaterThan(first[1]!.id);
  });
});

import type { Kernel } from '@forgekit/kernel';
import { statementsDuring } from '@forgekit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreMembersRef, coreProjectsRef } from '../contracts.js';
import { askKernel, createSharedDatabaseApps, lastUseStamped, type SharedDatabaseApps } from '../testing/shared-database.js';

const onPostgres = !!process.env.FORGEKIT_TEST_DATABASE_URL;

type Listed = { id: number; description: string; permissions?: { group_access: { access_level: number } | null } };

/** A reading request may take a project list's page kept under its own change mark: another process's write is seen at once. */
describe('project list pages kept between reading requests', () => {
  let shared: SharedDatabaseApps;
  let other: Kernel;

  beforeAll(async () => {
    shared = await createSharedDatabaseApps();
    other = await shared.kernelOnSameDatabase('other');
    // A token's first use is stamped after the answer, which moves the change mark: the callers'
    // stamps land before any reads are counted.
    for (const secret of [shared.app.tokens.developer, shared.app.tokens.reporter]) await lastUseStamped(other, secret);
  });
  afterAll(async () => {
    await other?.stop();
    await shared?.close();
  });

  const request = askKernel;
  const list = (kernel: Kernel, secret: string, query = 'per_page=20') => request(kernel, 'GET', `/projects?${query}`, secret);
  const listed = async (kernel: Kernel, secret: string) => (await list(kernel, secret)).body as Listed[];
  const ours = (projects: Listed[]) => projects.find((project) => project.id === shared.app.project.id);

  /** The statements over projects or members `kernel` runs while `run` does. */
  const pageReads = async (kernel: Kernel, run: () => Promise<unknown>) =>
    (await statementsDuring(kernel, run)).filter((sql) => /from `(projects|members)`/.test(sql));

  it.skipIf(onPostgres)('reads the page and the levels once while nothing is committed', async () => {
    const { tokens } = shared.app;
    await list(other, tokens.developer);
    expect(await pageReads(other, () => list(other, tokens.developer))).toEqual([]);
    // Another caller, another page or the simple view read their own.
    expect((await pageReads(other, () => list(other, tokens.reporter))).length).toBeGreaterThan(0);
    expect((await pageReads(other, () => list(other, tokens.developer, 'per_page=20&page=2'))).length).toBeGreaterThan(0);
    // The simple view takes the kept page too, once its projects' basic fragments are kept.
    await list(other, tokens.developer, 'per_page=20&simple=true');
    expect(await pageReads(other, () => list(other, tokens.developer, 'per_page=20&simple=true'))).toEqual([]);
  });

  it('answers each view from one kept page with its own texts', async () => {
    const { tokens } = shared.app;
    const at = async (query: string) => ours((await list(other, tokens.developer, query)).body as Listed[]) as (Listed & { web_url: string }) | undefined;
    const full = await at('per_page=20');
    for (let i = 0; i < 2; i++) {
      for (const simple of [await at('per_page=20&simple=true'), await at('per_page=20&simple=true')]) {
        expect(simple).toMatchObject({ id: full!.id, web_url: full!.web_url });
        expect(simple).not.toHaveProperty('permissions');
      }
      for (const again of [await at('per_page=20'), await at('per_page=20')]) expect(again).toEqual(full);
    }
  });

  it("answers another process's new project, change of a project and of the caller's levels on the next request", async () => {
    const { app } = shared;
    const { tokens, users } = app;
    for (let i = 0; i < 3; i++) expect(ours(await listed(other, tokens.developer))).toMatchObject({ permissions: { group_access: { access_level: 30 } } });
    const before = await list(other, tokens.developer);

    const projects = app.kernel.resolve(coreProjectsRef);
    const added = await projects.create(app.group, { name: 'Kept Elsewhere', path: 'kept-elsewhere' }, users.owner.id);
    const after = await list(other, tokens.developer);
    expect((after.body as Listed[])[0]).toMatchObject({ id: added.id });
    expect(Number(after.total)).toBe(Number(before.total) + 1);

    await projects.update(app.project, { description: 'listed elsewhere' });
    expect(ours(await listed(other, tokens.developer))).toMatchObject({ description: 'listed elsewhere' });

    const members = app.kernel.resolve(coreMembersRef);
    const membership = (await members.find({ type: 'Namespace', id: app.group.id }, users.developer.id))!;
    await members.update(membership, { accessLevel: 20 });
    expect(ours(await listed(other, tokens.developer))).toMatchObject({ permissions: { group_access: { access_level: 20 } } });
    await members.remove(membership);
    expect(ours(await listed(other, tokens.developer))).toBeUndefined();
    await members.add({ type: 'Namespace', id: app.group.id }, { userId: users.developer.id, accessLevel: 30 });
    expect(ours(await listed(other, tokens.developer))).toMatchObject({ permissions: { group_access: { access_level: 30 } } });

    await projects.remove(added.id);
    const removed = await list(other, tokens.developer);
    expect((removed.body as Listed[]).map((project) => project.id)).not.toContain(added.id);
    expect(removed.total).toBe(before.total);
  });

  it("answers the process's own write on its next request", async () => {
    const { tokens } = shared.app;
    expect(ours(await listed(other, tokens.maintainer))).toBeDefined();
    const changed = await request(other, 'PUT', `/projects/${shared.app.project.id}`, tokens.maintainer, { description: 'listed here' });
    expect(changed.status).toBe(200);
    expect(ours(await listed(other, tokens.maintainer))).toMatchObject({ description: 'listed here' });
  });
});

import type { Kernel } from '@forgekit/kernel';
import { statementsDuring } from '@forgekit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreMembersRef, coreProjectsRef } from '../contracts.js';
import { askKernel, createSharedDatabaseApps, lastUseStamped, type SharedDatabaseApps } from '../testing/shared-database.js';

const onPostgres = !!process.env.FORGEKIT_TEST_DATABASE_URL;

/** A reading request may take a project's row kept under its own change mark: another process's write is seen at once. */
describe('project rows kept between reading requests', () => {
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
  const project = (kernel: Kernel, secret: string) => request(kernel, 'GET', `/projects/${shared.app.project.id}`, secret);

  /** The project statements `kernel` runs while `run` does. */
  const projectReads = async (kernel: Kernel, run: () => Promise<unknown>) =>
    (await statementsDuring(kernel, run)).filter((sql) => /from `projects`/.test(sql));

  it.skipIf(onPostgres)('reads the project once while nothing is committed', async () => {
    const { tokens } = shared.app;
    expect(await projectReads(other, () => project(other, tokens.developer))).toHaveLength(1);
    expect(await projectReads(other, () => project(other, tokens.developer))).toEqual([]);
    // Another caller's levels are their own.
    expect(await projectReads(other, () => project(other, tokens.reporter))).toHaveLength(1);
  });

  it("answers another process's change of the project and of the caller's levels on the next request", async () => {
    const { app } = shared;
    const { tokens, users } = app;
    for (let i = 0; i < 3; i++) {
      expect((await project(other, tokens.developer)).body).toMatchObject({ description: '', permissions: { group_access: { access_level: 30 } } });
    }
    await app.kernel.resolve(coreProjectsRef).update(app.project, { description: 'changed elsewhere' });
    expect((await project(other, tokens.developer)).body).toMatchObject({ description: 'changed elsewhere' });

    const members = app.kernel.resolve(coreMembersRef);
    const membership = (await members.find({ type: 'Namespace', id: app.group.id }, users.developer.id))!;
    await members.update(membership, { accessLevel: 20 });
    expect((await project(other, tokens.developer)).body).toMatchObject({ permissions: { group_access: { access_level: 20 } } });
    await members.remove(membership);
    expect((await project(other, tokens.developer)).status).toBe(404);
    await members.add({ type: 'Namespace', id: app.group.id }, { userId: users.developer.id, accessLevel: 30 });
    expect((await project(other, tokens.developer)).body).toMatchObject({ permissions: { group_access: { access_level: 30 } } });
  });

  it("answers the process's own write on its next request", async () => {
    const { tokens } = shared.app;
    expect((await project(other, tokens.maintainer)).status).toBe(200);
    const renamed = await request(other, 'PUT', `/projects/${shared.app.project.id}`, tokens.maintainer, { description: 'changed here' });
    expect(renamed.status).toBe(200);
    expect((await project(other, tokens.maintainer)).body).toMatchObject({ description: 'changed here' });
  });
});

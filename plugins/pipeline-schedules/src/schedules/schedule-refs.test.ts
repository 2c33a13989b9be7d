import { definePlugin } from '@forgekit/kernel';
import { repositoryReadRef } from '@forgekit/plugin-repositories/contracts';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RefReader } from '../git-refs/repository-ref-resolver.js';
import { NIGHTLY, schedulePlugins, schedulesPath } from '../testing/schedule-fixtures.js';

/** Every project's repository has the branches `main` and `both`, and the tags `v1.0` and `both`. */
const REFS: Record<string, string> = {
  'refs/heads/main': 'a'.repeat(40),
  'refs/heads/both': 'b'.repeat(40),
  'refs/tags/v1.0': 'c0ffee'.padEnd(40, '0'),
  'refs/tags/both': 'd'.repeat(40),
};
const repository: RefReader = {
  find: (async () => ({ id: 1 })) as unknown as RefReader['find'],
  resolveCommit: (async (_repository: unknown, ref: string) => REFS[ref] ?? null) as unknown as RefReader['resolveCommit'],
};

/** A host's repositories provider, reduced to what schedules read: the optional dependency the plugin picks up. */
const fakeRepositoriesPlugin = definePlugin({
  id: 'fake-repositories',
  compatibility: '^0.1.0',
  provides: [repositoryReadRef],
  register(ctx) {
    ctx.provide(repositoryReadRef, repository as never);
  },
});

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ plugins: [fakeRepositoriesPlugin, ...schedulePlugins()] });
});
afterAll(() => app?.close());

describe('ref expansion against a repository', () => {
  it('expands a short name to the branch or the tag that exists', async () => {
    expect((await app.post(schedulesPath(app), { ...NIGHTLY, ref: 'main' }, { token: 'developer' })).body.ref).toBe('refs/heads/main');
    expect((await app.post(schedulesPath(app), { ...NIGHTLY, ref: 'v1.0' }, { token: 'developer' })).body.ref).toBe('refs/tags/v1.0');
  });

  it('refuses a name that is both a branch and a tag, or neither, as ambiguous', async () => {
    for (const ref of ['both', 'missing']) {
      expect(await app.post(schedulesPath(app), { ...NIGHTLY, ref }, { token: 'developer' })).toMatchObject({
        status: 400,
        body: { message: { ref: ['is ambiguous'] } },
      });
    }
  });

  it('keeps a full ref as given, which settles the ambiguity', async () => {
    expect((await app.post(schedulesPath(app), { ...NIGHTLY, ref: 'refs/tags/both' }, { token: 'developer' })).body.ref).toBe('refs/tags/both');
  });

  it('records the ref name, its kind and its commit on the pipelines the schedule starts', async () => {
    const schedule = (await app.post(schedulesPath(app), { ...NIGHTLY, ref: 'v1.0' }, { token: 'developer' })).body;
    expect((await app.post(`${schedulesPath(app)}/${schedule.id}/play`, undefined, { token: 'developer' })).status).toBe(201);
    const details = await app.get(`${schedulesPath(app)}/${schedule.id}`, { token: 'developer' });
    expect(details.body.last_pipeline).toMatchObject({ ref: 'v1.0', sha: 'c0ffee'.padEnd(40, '0'), source: 'scheduled' });
    const tags = await app.get(`${schedulesPath(app)}/${schedule.id}/pipelines`, { token: 'developer', query: { scope: 'tags' } });
    expect(tags.body).toHaveLength(1);
    expect((await app.get(`${schedulesPath(app)}/${schedule.id}/pipelines`, { token: 'developer', query: { scope: 'branches' } })).body).toEqual([]);
  });
});

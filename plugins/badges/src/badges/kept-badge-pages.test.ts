import type { Kernel } from '@forgekit/kernel';
import { askKernel, createSharedDatabaseApps, type SharedDatabaseApps } from '@forgekit/plugin-core/testing';
import { statementsDuring } from '@forgekit/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { badgesPlugin } from '../plugin.js';

const onPostgres = !!process.env.FORGEKIT_TEST_DATABASE_URL;

/** A badge list page's rows, kept for reading requests under their change mark, as another process sees them. */
describe('badge pages kept between reading requests', () => {
  let shared: SharedDatabaseApps;
  let other: Kernel;
  let projectBadges: string;

  beforeAll(async () => {
    shared = await createSharedDatabaseApps([badgesPlugin]);
    other = await shared.kernelOnSameDatabase('other');
    projectBadges = `/projects/${shared.app.project.id}/badges`;
    const added = await shared.app.post(
      `/api/v4${projectBadges}`,
      { link_url: 'https://x/%{project_path}', image_url: 'https://x/b.svg' },
      { token: 'maintainer' },
    );
    expect(added.status).toBe(201);
  });
  afterAll(async () => {
    await other?.stop();
    await shared?.close();
  });

  const listed = async () => {
    const res = await askKernel(other, 'GET', projectBadges, shared.app.tokens.developer);
    expect(res.status).toBe(200);
    return res.body as { id: number; link_url: string; rendered_link_url: string; kind: string }[];
  };

  it.skipIf(onPostgres)('reads a page once while nothing is committed', async () => {
    const badgeReads = async () => (await statementsDuring(other, listed)).filter((sql) => /from `badges`/.test(sql));
    // A token's first use writes its `last_used_at` without the request waiting, which moves the mark.
    await vi.waitFor(async () => expect(await badgeReads()).toEqual([]));
  });

  it("shows another process's new, changed and deleted badges on the next request", async () => {
    const { app } = shared;
    const before = await listed();
    const group = await app.post(
      `/api/v4/groups/${app.group.id}/badges`,
      { link_url: 'https://g/%{project_id}', image_url: 'https://g/b.svg' },
      { token: 'owner' },
    );
    expect(group.status).toBe(201);
    const withGroup = await listed();
    expect(withGroup).toHaveLength(before.length + 1);
    expect(withGroup.find((badge) => badge.id === group.body.id)).toMatchObject({ kind: 'group', rendered_link_url: `https://g/${app.project.id}` });
    const own = before.find((badge) => badge.kind === 'project')!;
    expect((await app.put(`/api/v4${projectBadges}/${own.id}`, { link_url: 'https://y/%{project_path}' }, { token: 'maintainer' })).status).toBe(200);
    expect((await listed()).find((badge) => badge.id === own.id)!.link_url).toBe('https://y/%{project_path}');
    expect((await app.delete(`/api/v4/groups/${app.group.id}/badges/${group.body.id}`, { token: 'owner' })).status).toBe(204);
    expect((await listed()).map((badge) => badge.id)).not.toContain(group.body.id);
  });
});

import type { Kernel } from '@forgekit/kernel';
import { createSharedDatabaseApps, type SharedDatabaseApps, type TestApp } from '@forgekit/plugin-core/testing';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { statementsDuring } from '@forgekit/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { issuesPlugin } from '../plugin.js';

const onPostgres = !!process.env.FORGEKIT_TEST_DATABASE_URL;

const plugins = [labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, issuesPlugin];

/** Issue lists keep each issue's own fields in the presented cache; the related ones are filled per request. */
describe('issue lists from the presented cache', () => {
  let app: TestApp;
  let shared: SharedDatabaseApps;
  /** A second server process's kernel on the same database. */
  let other: Kernel;
  let base: string;

  const listOn = async (kernel: Kernel, query = 'per_page=100') => {
    const response = await kernel.fetch(new Request(`http://localhost${base}/issues?${query}`, { headers: { 'PRIVATE-TOKEN': app.tokens.developer! } }));
    expect(response.status).toBe(200);
    return response.text();
  };
  const issueOn = async (kernel: Kernel, iid: number, query?: string) => {
    const found = (JSON.parse(await listOn(kernel, query)) as Record<string, any>[]).find((issue) => issue.iid === iid);
    expect(found).toBeDefined();
    return found!;
  };

  beforeAll(async () => {
    shared = await createSharedDatabaseApps(plugins);
    app = shared.app;
    other = await shared.kernelOnSameDatabase('other');
    base = `/api/v4/projects/${app.project.id}`;
    const milestone = await app.post(`${base}/milestones`, { title: 'First' }, { token: 'maintainer' });
    for (let i = 0; i < 4; i++) {
      const created = await app.post(
        `${base}/issues`,
        {
          title: `Issue ${i}`,
          description: i % 2 ? '- [x] done\n- [ ] open' : 'Plain *text*',
          labels: `l${i},shared`,
          milestone_id: milestone.body.id,
          assignee_ids: [app.users.developer!.id],
        },
        { token: 'maintainer' },
      );
      expect(created.status).toBe(201);
    }
  });
  afterAll(async () => {
    await other?.stop();
    await shared?.close();
  });

  it('answers the same bytes on a hit as the presenter does on a miss', async () => {
    // A kernel that keeps nothing presents every issue afresh.
    const uncached = await shared.kernelOnSameDatabase('uncached', { presentedCacheBytes: 0 });
    try {
      for (const query of ['per_page=100', 'per_page=100&with_labels_details=true', 'per_page=2&page=2']) {
        const fresh = await listOn(uncached, query);
        expect(await listOn(other, query)).toBe(fresh);
        expect(await listOn(other, query)).toBe(fresh);
      }
    } finally {
      await uncached.stop();
    }
  });

  it('shows at once, on another process, a change to an issue and to what it embeds', async () => {
    await listOn(other);
    expect((await app.put(`${base}/issues/1`, { title: 'Retitled' }, { token: 'maintainer' })).status).toBe(200);
    expect((await issueOn(other, 1)).title).toBe('Retitled');
    await listOn(other);
    expect((await app.put(`${base}/issues/1`, { description: '- [x] one\n- [x] two' }, { token: 'maintainer' })).status).toBe(200);
    expect((await issueOn(other, 1)).task_completion_status).toEqual({ count: 2, completed_count: 2 });
    // Related rows: a label of the issue, a note on it.
    await listOn(other);
    expect((await app.put(`${base}/labels/l2`, { new_name: 'l2-renamed' }, { token: 'maintainer' })).status).toBe(200);
    expect((await issueOn(other, 3)).labels).toContain('l2-renamed');
    await listOn(other);
    expect((await app.post(`${base}/issues/2/notes`, { body: 'A note' }, { token: 'developer' })).status).toBe(201);
    expect((await issueOn(other, 2)).user_notes_count).toBe(1);
  });

  /** The statements over what an issue list shows that `kernel` runs while `run` does. */
  const listReads = async (kernel: Kernel, run: () => Promise<unknown>) =>
    (await statementsDuring(kernel, run)).filter((sql) => /from `(issues|notes|award_emoji|labels|users|milestones)`/.test(sql));

  it.skipIf(onPostgres)('reads and presents a page once while nothing is committed', async () => {
    const first = await listOn(other, 'per_page=3');
    expect(await listReads(other, async () => expect(await listOn(other, 'per_page=3')).toBe(first))).toEqual([]);
    // Another page or other filters read their own.
    expect((await listReads(other, () => listOn(other, 'per_page=3&page=2'))).length).toBeGreaterThan(0);
    expect((await listReads(other, () => listOn(other, 'per_page=3&state=opened'))).length).toBeGreaterThan(0);
  });

  it("counts another process's new issue in a label list at once", async () => {
    const countOn = async (kernel: Kernel) => {
      const response = await kernel.fetch(
        new Request(`http://localhost${base}/labels?with_counts=true`, { headers: { 'PRIVATE-TOKEN': app.tokens.developer! } }),
      );
      expect(response.status).toBe(200);
      return ((await response.json()) as { name: string; open_issues_count: number }[]).find((label) => label.name === 'shared')!.open_issues_count;
    };
    const before = await countOn(other);
    expect(await countOn(other)).toBe(before);
    const created = await app.post(`${base}/issues`, { title: 'Counted elsewhere', labels: 'shared' }, { token: 'maintainer' });
    expect(created.status).toBe(201);
    expect(await countOn(other)).toBe(before + 1);
  });

  it("answers the process's own new issue on its next request", async () => {
    const before = JSON.parse(await listOn(other)) as { iid: number }[];
    const created = await other.fetch(
      new Request(`http://localhost${base}/issues`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': app.tokens.developer!, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Made here' }),
      }),
    );
    expect(created.status).toBe(201);
    const after = JSON.parse(await listOn(other)) as { iid: number; title: string }[];
    expect(after).toHaveLength(before.length + 1);
    expect(after[0]).toMatchObject({ title: 'Made here' });
  });

  it.skipIf(onPostgres)("looks a note list's issue up once while nothing is committed, and sees another process's change at once", async () => {
    const created = await app.post(`${base}/issues`, { title: 'Looked up' }, { token: 'maintainer' });
    expect(created.status).toBe(201);
    const notes = `${base}/issues/${created.body.iid}/notes`;
    const statusOf = async (token: 'guest' | 'developer') =>
      (await other.fetch(new Request(`http://localhost${notes}`, { headers: { 'PRIVATE-TOKEN': app.tokens[token]! } }))).status;
    const issueReads = async (token: 'guest' | 'developer') =>
      (await statementsDuring(other, async () => expect(await statusOf(token)).toBe(200))).filter((sql) => /from `issues`/.test(sql));
    // A token's first use writes its `last_used_at` without the request waiting, which moves the mark.
    const quiet = (token: 'guest' | 'developer') => vi.waitFor(async () => expect(await issueReads(token)).toEqual([]));
    await quiet('guest');
    expect((await app.put(`${base}/issues/${created.body.iid}`, { confidential: true }, { token: 'maintainer' })).status).toBe(200);
    expect(await statusOf('guest')).toBe(404);
    await quiet('developer');
    expect((await app.delete(`${base}/issues/${created.body.iid}`, { token: 'owner' })).status).toBe(204);
    expect(await statusOf('developer')).toBe(404);
  });
});

import { join } from 'node:path';
import type { Kernel } from '@forgekit/kernel';
import { createSharedDatabaseApps, type SharedDatabaseApps, type TestApp } from '@forgekit/plugin-core/testing';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { statementsDuring } from '@forgekit/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mergeRequestsPlugin } from '../plugin.js';

const onPostgres = !!process.env.FORGEKIT_TEST_DATABASE_URL;

const plugins = [repositoriesPlugin, labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, mergeRequestsPlugin];

/** Merge request lists keep each merge request's own fields in the presented cache; the related ones and git's are filled per request. */
describe('merge request lists from the presented cache', () => {
  let app: TestApp;
  let shared: SharedDatabaseApps;
  /** A second server process's kernel on the same database and repositories. */
  let other: Kernel;
  let base: string;

  const onSameData = (name: string, config: Record<string, unknown> = {}) =>
    shared.kernelOnSameDatabase(name, { plugins: { repositories: { storages: { default: join(app.kernel.config.dataDir, 'repositories') } } }, ...config });
  const listOn = async (kernel: Kernel, query = 'per_page=100') => {
    const response = await kernel.fetch(
      new Request(`http://localhost${base}/merge_requests?${query}`, { headers: { 'PRIVATE-TOKEN': app.tokens.developer! } }),
    );
    expect(response.status).toBe(200);
    return response.text();
  };
  const mergeRequestOn = async (kernel: Kernel, iid: number) => {
    const found = (JSON.parse(await listOn(kernel)) as Record<string, any>[]).find((mr) => mr.iid === iid);
    expect(found).toBeDefined();
    return found!;
  };
  async function commit(branch: string, path: string, from?: string) {
    const res = await app.post(
      `${base}/repository/commits`,
      {
        branch,
        ...(from ? { start_branch: from } : {}),
        commit_message: `Add ${path}`,
        actions: [{ action: 'create', file_path: path, content: `${path}\n` }],
      },
      { token: 'maintainer' },
    );
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  beforeAll(async () => {
    shared = await createSharedDatabaseApps(plugins);
    app = shared.app;
    base = `/api/v4/projects/${app.project.id}`;
    other = await onSameData('other');
    await commit('main', 'README.md');
    const milestone = await app.post(`${base}/milestones`, { title: 'First' }, { token: 'maintainer' });
    for (let i = 1; i <= 3; i++) {
      await commit(`feature-${i}`, `f${i}.txt`, 'main');
      const created = await app.post(
        `${base}/merge_requests`,
        {
          title: `Change ${i}`,
          source_branch: `feature-${i}`,
          target_branch: 'main',
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
    // A kernel that keeps nothing presents every merge request afresh.
    const uncached = await onSameData('uncached', { presentedCacheBytes: 0 });
    try {
      for (const query of ['per_page=100', 'per_page=100&with_labels_details=true', 'per_page=2&page=2', 'per_page=100&view=simple']) {
        const fresh = await listOn(uncached, query);
        expect(await listOn(other, query)).toBe(fresh);
        expect(await listOn(other, query)).toBe(fresh);
      }
    } finally {
      await uncached.stop();
    }
  });

  it('shows at once, on another process, a change to a merge request, to what it embeds and to its branches', async () => {
    await listOn(other);
    expect((await app.put(`${base}/merge_requests/1`, { title: 'Retitled' }, { token: 'maintainer' })).status).toBe(200);
    expect((await mergeRequestOn(other, 1)).title).toBe('Retitled');
    await listOn(other);
    expect((await app.put(`${base}/merge_requests/1`, { description: '- [x] one\n- [x] two' }, { token: 'maintainer' })).status).toBe(200);
    expect((await mergeRequestOn(other, 1)).task_completion_status).toEqual({ count: 2, completed_count: 2 });
    await listOn(other);
    expect((await app.put(`${base}/merge_requests/2`, { state_event: 'close' }, { token: 'maintainer' })).status).toBe(200);
    expect(await mergeRequestOn(other, 2)).toMatchObject({ state: 'closed', closed_by: { username: 'maintainer' }, detailed_merge_status: 'not_open' });
    // Related rows: a label, a note; and git: a push to the source branch.
    await listOn(other);
    expect((await app.put(`${base}/labels/l3`, { new_name: 'l3-renamed' }, { token: 'maintainer' })).status).toBe(200);
    expect((await mergeRequestOn(other, 3)).labels).toContain('l3-renamed');
    await listOn(other);
    expect((await app.post(`${base}/merge_requests/3/notes`, { body: 'A note' }, { token: 'developer' })).status).toBe(201);
    expect((await mergeRequestOn(other, 3)).user_notes_count).toBe(1);
    await listOn(other);
    const head = await commit('feature-3', 'more.txt');
    expect((await mergeRequestOn(other, 3)).sha).toBe(head);
  });

  /** The page statements (those carrying the total) `kernel` runs while `run` does. */
  const pageReads = async (kernel: Kernel, run: () => Promise<unknown>) => (await statementsDuring(kernel, run)).filter((sql) => /total_count/.test(sql));

  it.skipIf(onPostgres)('reads a page once while nothing is committed, and again after any process commits anything', async () => {
    // The token's first use on this process stamps it: a commit of its own, before the page is kept.
    await listOn(other, 'per_page=2');
    await listOn(other, 'per_page=2');
    expect(await pageReads(other, () => listOn(other, 'per_page=2'))).toEqual([]);
    // Another page, or another filter, is read on its own.
    expect(await pageReads(other, () => listOn(other, 'per_page=2&page=2'))).toHaveLength(1);
    expect(await pageReads(other, () => listOn(other, 'per_page=2&state=opened'))).toHaveLength(1);
    // A commit that changes none of the page's rows moves the mark all the same.
    expect((await app.post(`${base}/labels`, { name: 'kept-unrelated', color: '#112233' }, { token: 'maintainer' })).status).toBe(201);
    expect(await pageReads(other, () => listOn(other, 'per_page=2'))).toHaveLength(1);
  });

  /** An instance-wide list filtered by label, as an administrator: its labels are looked up among those every merge request carries. */
  const instanceListOn = async (kernel: Kernel) => {
    const response = await kernel.fetch(
      new Request('http://localhost/api/v4/merge_requests?scope=all&labels=shared&per_page=100', { headers: { 'PRIVATE-TOKEN': app.tokens.admin! } }),
    );
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, any>[];
  };
  /** The statements over what a list page shows besides its rows. */
  const relatedReads = async (kernel: Kernel, run: () => Promise<unknown>) =>
    (await statementsDuring(kernel, run)).filter((sql) =>
      /from `(merge_request_users|merge_request_labels|notes|award_emoji|users|labels|milestones|projects|repositories)`/.test(sql),
    );

  it.skipIf(onPostgres)("reads a kept page's related rows and its label filter once while nothing is committed", async () => {
    await instanceListOn(other);
    await listOn(other);
    await vi.waitFor(async () => expect(await relatedReads(other, () => Promise.all([instanceListOn(other), listOn(other)]))).toEqual([]));
    const listed = await instanceListOn(other);
    expect(listed.map((mr) => mr.labels)).toEqual(listed.map(() => expect.arrayContaining(['shared'])));
    expect(listed.length).toBeGreaterThan(0);
  });

  it('shows at once, on another process, a change to the users, milestone, votes and project a page embeds', async () => {
    const mr = async () => (await instanceListOn(other)).find((found) => found.iid === 3)!;
    await mr();
    expect((await app.put(`/api/v4/users/${app.users.developer!.id}`, { name: 'Renamed Developer' }, { token: 'admin' })).status).toBe(200);
    expect((await mr()).assignees[0].name).toBe('Renamed Developer');
    const milestoneId = (await mr()).milestone.id;
    expect((await app.put(`${base}/milestones/${milestoneId}`, { title: 'Renamed milestone' }, { token: 'maintainer' })).status).toBe(200);
    expect((await mr()).milestone.title).toBe('Renamed milestone');
    expect((await app.post(`${base}/merge_requests/3/award_emoji`, { name: 'thumbsup' }, { token: 'developer' })).status).toBe(201);
    expect((await mr()).upvotes).toBe(1);
    const project = await app.get(base, { token: 'owner' });
    expect((await app.put(base, { path: 'moved-project' }, { token: 'owner' })).status).toBe(200);
    try {
      expect((await mr()).web_url).toContain('/moved-project/-/merge_requests/3');
      expect((await mr()).references.full).toContain('moved-project!3');
    } finally {
      expect((await app.put(base, { path: project.body.path }, { token: 'owner' })).status).toBe(200);
    }
    expect((await mr()).web_url).toContain(`/${project.body.path}/-/merge_requests/3`);
  });

  it("filters an instance-wide list by another process's new label at once", async () => {
    await instanceListOn(other);
    expect((await app.put(`${base}/merge_requests/1`, { add_labels: 'shared-later' }, { token: 'maintainer' })).status).toBe(200);
    const response = await other.fetch(
      new Request('http://localhost/api/v4/merge_requests?scope=all&labels=shared-later', { headers: { 'PRIVATE-TOKEN': app.tokens.admin! } }),
    );
    expect(((await response.json()) as { iid: number }[]).map((found) => found.iid)).toEqual([1]);
  });

  it('shows at once, on another process, a merge request created or deleted there', async () => {
    const listed = async () => {
      const response = await other.fetch(
        new Request(`http://localhost${base}/merge_requests?per_page=100`, { headers: { 'PRIVATE-TOKEN': app.tokens.developer! } }),
      );
      return { iids: ((await response.json()) as { iid: number }[]).map((mr) => mr.iid), total: Number(response.headers.get('x-total')) };
    };
    const before = await listed();
    await listed();
    await commit('kept-feature', 'kept.txt', 'main');
    const created = await app.post(`${base}/merge_requests`, { title: 'Kept', source_branch: 'kept-feature', target_branch: 'main' }, { token: 'maintainer' });
    expect(created.status).toBe(201);
    const after = await listed();
    expect(after.iids[0]).toBe(created.body.iid);
    expect(after.total).toBe(before.total + 1);
    await listed();
    expect((await app.delete(`${base}/merge_requests/${created.body.iid}`, { token: 'owner' })).status).toBe(204);
    const removed = await listed();
    expect(removed.iids).not.toContain(created.body.iid);
    expect(removed.total).toBe(before.total);
  });
});

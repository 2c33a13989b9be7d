import { kernelServices, type Kernel } from '@forgekit/kernel';
import { createSharedDatabaseApps, type SharedDatabaseApps, type TestApp } from '@forgekit/plugin-core/testing';
import { statementsDuring } from '@forgekit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelsPlugin } from '../plugin.js';
import { createLabelService } from './label-service.js';
import { createLabelStore } from './label-store.js';
import { createLabelViews } from './label-views.js';

const onPostgres = !!process.env.FORGEKIT_TEST_DATABASE_URL;

describe('label lists from the presented cache', () => {
  let app: TestApp;
  let shared: SharedDatabaseApps;
  /** A second server process's kernel on the same database. */
  let other: Kernel;
  let projectLabel: number;
  const groupLabels = () => `/api/v4/groups/${app.group.id}/labels`;
  const projectLabels = () => `/api/v4/projects/${app.project.id}/labels`;

  const listOn = async (kernel: Kernel, path: string) => {
    const response = await kernel.fetch(new Request(`http://localhost${path}`, { headers: { 'PRIVATE-TOKEN': app.tokens.maintainer! } }));
    expect(response.status).toBe(200);
    return { text: await response.text() };
  };

  beforeAll(async () => {
    shared = await createSharedDatabaseApps([labelsPlugin]);
    app = shared.app;
    other = await shared.kernelOnSameDatabase('other');
    for (let i = 0; i < 4; i++) {
      const created = await app.post(groupLabels(), { name: `group-${i}`, color: '#428BCA', description: `Group **${i}**` }, { token: 'owner' });
      expect(created.status).toBe(201);
    }
    const created = await app.post(projectLabels(), { name: 'project-label', color: 'red', priority: 3 }, { token: 'maintainer' });
    expect(created.status).toBe(201);
    projectLabel = created.body.id;
  });
  afterAll(async () => {
    await other?.stop();
    await shared?.close();
  });

  it('answers the same bytes from the cache as the presenter does', async () => {
    const labels = createLabelService(createLabelStore(app.kernel.database), app.kernel.events);
    const plain = createLabelViews(labels);
    const cached = createLabelViews(labels, app.kernel.resolve(kernelServices.presented));
    const { labels: list } = await labels.page(
      { projectIds: [app.project.id], groupIds: [app.group.id] },
      {},
      { page: 1, perPage: 20, offset: 0, perPageSent: 20 },
      { userId: app.users.maintainer!.id, projectId: app.project.id },
    );
    expect(list.length).toBe(5);
    expect((await app.post(`/api/v4/projects/${app.project.id}/labels/${projectLabel}/subscribe`, undefined, { token: 'maintainer' })).status).toBe(201);
    const counts = { user: app.users.maintainer!, kind: 'project' as const, access: { project: app.project, level: 40, projectLevel: 40, groupLevel: 40 } };
    for (const options of [
      { userId: app.users.maintainer!.id },
      { userId: app.users.maintainer!.id, projectId: app.project.id },
      { userId: app.users.maintainer!.id, projectId: app.project.id, counts },
    ]) {
      for (let round = 0; round < 2; round++) {
        expect(JSON.stringify(await cached.list(list, options as never))).toBe(JSON.stringify(await plain.many(list, options as never)));
      }
    }
  });

  it('shows at once, on another process, a change to a label', async () => {
    const before = await listOn(other, `${projectLabels()}?with_counts=true`);
    expect(before.text).toContain('"name":"project-label"');
    expect((await listOn(other, `${projectLabels()}?with_counts=true`)).text).toBe(before.text);
    const changed = await app.put(`${projectLabels()}/${projectLabel}`, { description: 'now *described*' }, { token: 'maintainer' });
    expect(changed.status).toBe(200);
    expect((await listOn(other, `${projectLabels()}?with_counts=true`)).text).toContain('"description":"now *described*"');
    await listOn(other, groupLabels());
    const renamed = await app.put(`${groupLabels()}/group-1`, { new_name: 'group-renamed' }, { token: 'owner' });
    expect(renamed.status).toBe(200);
    expect((await listOn(other, groupLabels())).text).toContain('"name":"group-renamed"');
    // A caller's field: the subscription is not part of the kept text.
    await listOn(other, groupLabels());
    expect((await app.post(`${groupLabels()}/group-2/subscribe`, undefined, { token: 'maintainer' })).status).toBe(201);
    const listed = JSON.parse((await listOn(other, groupLabels())).text) as { name: string; subscribed: boolean }[];
    expect(listed.find((label) => label.name === 'group-2')?.subscribed).toBe(true);
  });

  /** The statements over what a label list shows that `kernel` runs while `run` does. */
  const listReads = async (kernel: Kernel, run: () => Promise<unknown>) =>
    (await statementsDuring(kernel, run)).filter((sql) => /from `(labels|label_\w+|members|namespaces|projects|subscriptions)`/.test(sql));

  it.skipIf(onPostgres)('reads and presents a page once while nothing is committed', async () => {
    for (const path of [`${groupLabels()}?with_counts=true`, `${projectLabels()}?with_counts=true`]) {
      const first = await listOn(other, path);
      expect(await listReads(other, async () => expect((await listOn(other, path)).text).toBe(first.text))).toEqual([]);
      // Another page or other parameters read their own.
      expect((await listReads(other, () => listOn(other, `${path}&per_page=2`))).length).toBeGreaterThan(0);
      expect((await listReads(other, () => listOn(other, `${path}&search=group`))).length).toBeGreaterThan(0);
    }
  });
});

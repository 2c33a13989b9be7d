import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mergeRequestEvents } from '../contracts.js';
import { mergeRequestsPlugin } from '../plugin.js';

let app: TestApp;
const seen: [string, Record<string, unknown>][] = [];

beforeAll(async () => {
  app = await createTestApp({ plugins: [repositoriesPlugin, labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, mergeRequestsPlugin] });
  for (const [name, event] of Object.entries(mergeRequestEvents)) {
    app.kernel.events.on(event as typeof mergeRequestEvents.opened, (payload) => {
      seen.push([name, payload as unknown as Record<string, unknown>]);
    });
  }
});
afterAll(() => app.close());

it('announces opened, updated with changes, closed, reopened, merged and deleted', async () => {
  const base = `/api/v4/projects/${app.project.id}`;
  for (const [branch, start] of [
    ['main', undefined],
    ['topic', 'main'],
  ] as const) {
    const res = await app.post(
      `${base}/repository/commits`,
      {
        branch,
        ...(start ? { start_branch: start } : {}),
        commit_message: branch,
        actions: [{ action: 'create', file_path: `${branch}.txt`, content: branch }],
      },
      { token: 'maintainer' },
    );
    expect(res.status).toBe(201);
  }
  const opened = await app.post(`${base}/merge_requests`, { title: 'Evented', source_branch: 'topic', target_branch: 'main' }, { token: 'developer' });
  const item = `${base}/merge_requests/${opened.body.iid}`;
  await app.put(item, { title: 'Evented twice' }, { token: 'developer' });
  await app.put(item, { state_event: 'close' }, { token: 'developer' });
  await app.put(item, { state_event: 'reopen' }, { token: 'developer' });
  const merged = await app.put(`${item}/merge`, {}, { token: 'maintainer' });
  await app.delete(item, { token: 'owner' });
  const ids = { mergeRequestId: opened.body.id, projectId: app.project.id };
  const developer = app.users.developer.id;
  expect(seen).toEqual([
    ['opened', { ...ids, userId: developer }],
    [
      'updated',
      {
        ...ids,
        userId: developer,
        changes: { title: { previous: 'Evented', current: 'Evented twice' }, updated_at: { previous: expect.any(String), current: expect.any(String) } },
      },
    ],
    ['closed', { ...ids, userId: developer }],
    ['reopened', { ...ids, userId: developer }],
    ['merged', { ...ids, userId: app.users.maintainer.id, mergeCommitSha: merged.body.merge_commit_sha }],
    ['deleted', { ...ids, userId: app.users.owner.id, iid: opened.body.iid }],
  ]);
});

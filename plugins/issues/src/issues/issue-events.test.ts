import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { issueEvents } from '../contracts.js';
import { issuesPlugin } from '../plugin.js';

let app: TestApp;
const seen: [string, Record<string, unknown>][] = [];

beforeAll(async () => {
  app = await createTestApp({ plugins: [labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, issuesPlugin] });
  for (const [name, event] of Object.entries(issueEvents)) {
    app.kernel.events.on(event as typeof issueEvents.created, (payload) => {
      seen.push([name, payload as unknown as Record<string, unknown>]);
    });
  }
});
afterAll(() => app.close());

it('announces created, updated with changes, closed, reopened and deleted', async () => {
  const base = `/api/v4/projects/${app.project.id}/issues`;
  const created = await app.post(base, { title: 'Evented' }, { token: 'developer' });
  const ids = { issueId: created.body.id, projectId: app.project.id };
  await app.put(`${base}/${created.body.iid}`, { title: 'Evented twice' }, { token: 'developer' });
  await app.put(`${base}/${created.body.iid}`, { state_event: 'close' }, { token: 'developer' });
  await app.put(`${base}/${created.body.iid}`, { state_event: 'reopen' }, { token: 'developer' });
  await app.delete(`${base}/${created.body.iid}`, { token: 'owner' });
  const developer = app.users.developer.id;
  expect(seen).toEqual([
    ['created', { ...ids, userId: developer }],
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
    ['deleted', { ...ids, userId: app.users.owner.id, iid: created.body.iid }],
  ]);
});

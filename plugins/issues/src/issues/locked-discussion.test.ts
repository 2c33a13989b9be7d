import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { issuesPlugin } from '../plugin.js';

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp({ plugins: [labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, issuesPlugin] });
});
afterAll(() => app.close());

it('takes comments on a locked issue from project members only', async () => {
  const project = await app.post('/api/v4/projects', { name: 'Open', visibility: 'public' }, { token: 'owner' });
  const notes = `/api/v4/projects/${project.body.id}/issues/1/notes`;
  await app.post(`/api/v4/projects/${project.body.id}/issues`, { title: 'Heated' }, { token: 'owner' });
  expect((await app.post(notes, { body: 'outside view' }, { token: 'nonMember' })).status).toBe(201);

  const locked = await app.put(`/api/v4/projects/${project.body.id}/issues/1`, { discussion_locked: true }, { token: 'owner' });
  expect(locked.body.discussion_locked).toBe(true);
  expect(await app.post(notes, { body: 'again' }, { token: 'nonMember' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
  expect((await app.post(notes, { body: 'member view' }, { token: 'owner' })).status).toBe(201);
  expect((await app.get(notes, { token: 'nonMember' })).body.map((note: { body: string; system: boolean }) => note.body)).toContain('outside view');
});

import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuesPlugin } from '../plugin.js';

let app: TestApp;
let base: string;
beforeAll(async () => {
  app = await createTestApp({ plugins: [labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, issuesPlugin] });
  base = `/api/v4/projects/${app.project.id}`;
  expect((await app.post(`${base}/issues`, { title: 'Before' }, { token: 'developer' })).status).toBe(201);
});
afterAll(() => app.close());

const setIssuesLevel = async (level: string) =>
  expect((await app.put(base, { issues_access_level: level }, { token: 'owner' })).body.issues_access_level).toBe(level);

const routes = (token: string) => [
  app.get(`${base}/issues`, { token }),
  app.get(`${base}/issues/1`, { token }),
  app.get(`${base}/issues_statistics`, { token }),
  app.post(`${base}/issues`, { title: 'While closed' }, { token }),
  app.put(`${base}/issues/1`, { title: 'Renamed' }, { token }),
];

describe('the project issues feature', () => {
  it('answers 403 on every project issue route when disabled, whatever the role', async () => {
    await setIssuesLevel('disabled');
    try {
      for (const token of ['developer', 'owner', 'admin']) {
        for (const res of await Promise.all(routes(token))) expect(res).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
      }
      expect((await app.delete(`${base}/issues/1`, { token: 'owner' })).status).toBe(403);
    } finally {
      await setIssuesLevel('enabled');
    }
    const issues = await app.get(`${base}/issues`, { token: 'developer' });
    expect(issues.body.map((issue: { title: string }) => issue.title)).toEqual(['Before']);
  });

  it('stays open to members when private', async () => {
    await setIssuesLevel('private');
    try {
      expect((await app.get(`${base}/issues`, { token: 'guest' })).status).toBe(200);
      expect((await app.post(`${base}/issues`, { title: 'By a member' }, { token: 'developer' })).status).toBe(201);
    } finally {
      await setIssuesLevel('enabled');
    }
  });

  it('still answers 404 for a project the caller cannot see', async () => {
    const res = await app.get('/api/v4/projects/999999/issues', { token: 'developer' });
    expect(res).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
  });
});

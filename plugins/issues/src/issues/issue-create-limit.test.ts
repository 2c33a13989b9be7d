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
});
afterAll(() => app.close());

const titles = async () =>
  (await app.get(`${base}/issues`, { token: 'maintainer', query: { per_page: 100 } })).body.map((issue: { title: string }) => issue.title);

describe('the issue creation rate limit', () => {
  it('answers 429 past `issues_create_limit` issues a minute, per user', async () => {
    expect((await app.get('/api/v4/application/settings', { token: 'admin' })).body.issues_create_limit).toBe(300);
    expect((await app.put('/api/v4/application/settings', { issues_create_limit: 2 }, { token: 'admin' })).status).toBe(200);
    try {
      for (const title of ['one', 'two']) expect((await app.post(`${base}/issues`, { title }, { token: 'developer' })).status).toBe(201);
      const refused = await app.post(`${base}/issues`, { title: 'three' }, { token: 'developer' });
      expect(refused).toMatchObject({
        status: 429,
        body: { message: { error: 'This endpoint has been requested too many times. Try again later.' } },
      });
      expect(await titles()).not.toContain('three');
      expect((await app.post(`${base}/issues`, { title: 'other user' }, { token: 'maintainer' })).status).toBe(201);
    } finally {
      await app.put('/api/v4/application/settings', { issues_create_limit: 300 }, { token: 'admin' });
    }
  });

  it('is off at 0', async () => {
    expect((await app.put('/api/v4/application/settings', { issues_create_limit: 0 }, { token: 'admin' })).status).toBe(200);
    try {
      for (const title of ['a', 'b', 'c']) expect((await app.post(`${base}/issues`, { title }, { token: 'reporter' })).status).toBe(201);
    } finally {
      await app.put('/api/v4/application/settings', { issues_create_limit: 300 }, { token: 'admin' });
    }
  });

  it('refuses a negative limit', async () => {
    const res = await app.put('/api/v4/application/settings', { issues_create_limit: -1 }, { token: 'admin' });
    expect(res.status).toBe(400);
  });
});

import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuesPlugin } from '../plugin.js';

let app: TestApp;
let base: string;

const counts = (all: number, closed: number, opened: number) => ({ statistics: { counts: { all, closed, opened } } });

beforeAll(async () => {
  app = await createTestApp({ plugins: [labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, issuesPlugin] });
  base = `/api/v4/projects/${app.project.id}`;
  for (const [title, labels] of [
    ['One', 'bug'],
    ['Two', 'bug'],
    ['Three', ''],
  ]) {
    expect((await app.post(`${base}/issues`, { title, labels }, { token: 'developer' })).status).toBe(201);
  }
  expect((await app.put(`${base}/issues/2`, { state_event: 'close' }, { token: 'developer' })).status).toBe(200);
  expect((await app.post(`${base}/issues`, { title: 'Secret', confidential: true }, { token: 'maintainer' })).status).toBe(201);
});
afterAll(() => app.close());

describe('issues statistics', () => {
  it('counts a project’s issues by state, whatever state is asked for', async () => {
    expect((await app.get(`${base}/issues_statistics`, { token: 'developer' })).body).toEqual(counts(4, 1, 3));
    expect((await app.get(`${base}/issues_statistics`, { token: 'developer', query: { state: 'closed' } })).body).toEqual(counts(4, 1, 3));
  });

  it('applies the list filters', async () => {
    expect((await app.get(`${base}/issues_statistics`, { token: 'developer', query: { labels: 'bug' } })).body).toEqual(counts(2, 1, 1));
    expect((await app.get(`${base}/issues_statistics`, { token: 'developer', query: { search: 'Three' } })).body).toEqual(counts(1, 0, 1));
  });

  it('counts only what the caller may see', async () => {
    expect((await app.get(`${base}/issues_statistics`, { token: 'guest' })).body).toEqual(counts(3, 1, 2));
  });

  it('counts at group and instance level', async () => {
    const group = await app.get(`/api/v4/groups/${app.group.id}/issues_statistics`, { token: 'developer' });
    expect(group.status).toBe(200);
    expect(group.body).toEqual(counts(4, 1, 3));
    expect((await app.get('/api/v4/issues_statistics', { token: 'developer' })).body).toEqual(counts(3, 1, 2));
    expect((await app.get('/api/v4/issues_statistics', { token: 'developer', query: { scope: 'all' } })).body).toEqual(counts(4, 1, 3));
  });

  it('asks anonymous callers to sign in unless the scope is all', async () => {
    const res = await app.get('/api/v4/issues_statistics');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: '401 Unauthorized' });
  });

  it('answers 404 for a project the caller cannot see', async () => {
    const res = await app.get('/api/v4/projects/999999/issues_statistics', { token: 'developer' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: '404 Project Not Found' });
  });
});

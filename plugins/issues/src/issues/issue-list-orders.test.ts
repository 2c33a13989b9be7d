import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuesPlugin } from '../plugin.js';

let app: TestApp;
let base: string;
const today = new Date();
const dayFrom = (days: number) => new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + days)).toISOString().slice(0, 10);

const titles = (body: { title: string }[]) => body.map((issue) => issue.title);
const list = async (query: Record<string, string | number>) => {
  const res = await app.get(`${base}/issues`, { token: 'developer', query: { per_page: 100, ...query } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return titles(res.body);
};

beforeAll(async () => {
  app = await createTestApp({ plugins: [labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, issuesPlugin] });
  base = `/api/v4/projects/${app.project.id}`;
  const milestone = async (title: string, due_date?: string) =>
    (await app.post(`${base}/milestones`, { title, ...(due_date ? { due_date } : {}) }, { token: 'maintainer' })).body.id as number;
  const soon = await milestone('Soon', dayFrom(3));
  const later = await milestone('Later', dayFrom(30));
  const undated = await milestone('Undated');
  for (const [name, priority] of [
    ['p1', 1],
    ['p5', 5],
    ['plain', undefined],
  ] as const) {
    const res = await app.post(`${base}/labels`, { name, color: '#FF0000', ...(priority ? { priority } : {}) }, { token: 'maintainer' });
    expect(res.status).toBe(201);
  }
  const issues: [string, Record<string, unknown>][] = [
    ['A none', {}],
    ['B later p1', { milestone_id: later, labels: 'p1', due_date: dayFrom(-2) }],
    ['C soon p5', { milestone_id: soon, labels: 'p5,plain', due_date: dayFrom(0) }],
    ['D undated p1', { milestone_id: undated, labels: 'p1,p5', due_date: dayFrom(1) }],
    ['E soon plain', { milestone_id: soon, labels: 'plain', due_date: dayFrom(40) }],
  ];
  for (const [title, body] of issues) {
    const res = await app.post(`${base}/issues`, { title, ...body }, { token: 'maintainer' });
    expect(res.status).toBe(201);
  }
});
afterAll(() => app.close());

describe('due_date filter', () => {
  it('answers each of GitLab’s words', async () => {
    expect(await list({ due_date: '0' })).toEqual(['A none']);
    expect(await list({ due_date: 'any' })).toEqual(['E soon plain', 'D undated p1', 'C soon p5', 'B later p1']);
    expect(await list({ due_date: 'today' })).toEqual(['C soon p5']);
    expect(await list({ due_date: 'tomorrow' })).toEqual(['D undated p1']);
    expect(await list({ due_date: 'overdue' })).toEqual(['B later p1']);
    expect(await list({ due_date: 'next_month_and_previous_two_weeks' })).toEqual(expect.arrayContaining(['D undated p1', 'C soon p5', 'B later p1']));
    expect(await list({ due_date: '' })).toHaveLength(5);
    const month = await list({ due_date: 'month' });
    expect(month).toContain('C soon p5');
    expect(month).not.toContain('E soon plain');
    expect(await list({ due_date: 'week' })).toContain('C soon p5');
  });

  it('refuses other values with Grape’s error', async () => {
    for (const path of [`${base}/issues`, `/api/v4/groups/${app.group.id}/issues`, '/api/v4/issues']) {
      const res = await app.get(path, { token: 'developer', query: { due_date: 'yesterday' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'due_date does not have a valid value' });
    }
  });

  it('works on the group and instance lists', async () => {
    expect(titles((await app.get(`/api/v4/groups/${app.group.id}/issues`, { token: 'developer', query: { due_date: 'today' } })).body)).toEqual(['C soon p5']);
    expect(titles((await app.get('/api/v4/issues', { token: 'developer', query: { due_date: 'today', scope: 'all' } })).body)).toEqual(['C soon p5']);
  });
});

describe('order_by', () => {
  it('milestone_due: nearest milestone due date first, undated milestones, then no milestone; ties newest first', async () => {
    expect(await list({ order_by: 'milestone_due', sort: 'asc' })).toEqual(['E soon plain', 'C soon p5', 'B later p1', 'D undated p1', 'A none']);
    expect(await list({ order_by: 'milestone_due', sort: 'desc' })).toEqual(['B later p1', 'E soon plain', 'C soon p5', 'D undated p1', 'A none']);
  });

  it('milestone_due and priority when no matching issue’s milestone has a due date', async () => {
    expect(await list({ order_by: 'milestone_due', milestone: 'Undated' })).toEqual(['D undated p1']);
    expect(await list({ order_by: 'priority', milestone: 'None' })).toEqual(['A none']);
  });

  it('label_priority: the highest priority of the issue’s labels, issues without one last', async () => {
    expect(await list({ order_by: 'label_priority', sort: 'asc' })).toEqual(['D undated p1', 'B later p1', 'C soon p5', 'E soon plain', 'A none']);
    expect(await list({ order_by: 'label_priority', sort: 'desc' })).toEqual(['C soon p5', 'D undated p1', 'B later p1', 'E soon plain', 'A none']);
  });

  it('label_priority leaves out the labels the list filters by', async () => {
    expect(await list({ order_by: 'label_priority', sort: 'asc', labels: 'p5' })).toEqual(['D undated p1', 'C soon p5']);
  });

  it('priority: milestone due date, then label priority', async () => {
    expect(await list({ order_by: 'priority', sort: 'asc' })).toEqual(['C soon p5', 'E soon plain', 'B later p1', 'D undated p1', 'A none']);
    expect(await list({ order_by: 'priority', sort: 'desc' })).toEqual(['B later p1', 'C soon p5', 'E soon plain', 'D undated p1', 'A none']);
  });

  it('popularity and relative_position: no upvotes nor positions here, so newest first', async () => {
    const newestFirst = ['E soon plain', 'D undated p1', 'C soon p5', 'B later p1', 'A none'];
    expect(await list({ order_by: 'popularity', sort: 'asc' })).toEqual(newestFirst);
    expect(await list({ order_by: 'popularity' })).toEqual(newestFirst);
    expect(await list({ order_by: 'relative_position', sort: 'asc' })).toEqual(newestFirst);
  });

  it('due_date and title, nulls last', async () => {
    expect(await list({ order_by: 'due_date', sort: 'asc' })).toEqual(['B later p1', 'C soon p5', 'D undated p1', 'E soon plain', 'A none']);
    expect(await list({ order_by: 'due_date', sort: 'desc' })).toEqual(['E soon plain', 'D undated p1', 'C soon p5', 'B later p1', 'A none']);
    expect(await list({ order_by: 'title', sort: 'asc' })).toEqual(['A none', 'B later p1', 'C soon p5', 'D undated p1', 'E soon plain']);
  });

  it('pages through a computed order', async () => {
    const first = await list({ order_by: 'priority', sort: 'asc', per_page: 2, page: 1 });
    const second = await list({ order_by: 'priority', sort: 'asc', per_page: 2, page: 2 });
    expect([...first, ...second]).toEqual(['C soon p5', 'E soon plain', 'B later p1', 'D undated p1']);
  });

  it('refuses unknown orders', async () => {
    const res = await app.get(`${base}/issues`, { token: 'developer', query: { order_by: 'weight' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'order_by does not have a valid value' });
  });
});

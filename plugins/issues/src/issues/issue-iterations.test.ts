import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { iterationsPlugin } from '@forgekit/plugin-iterations';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { issuesPlugin } from '../plugin.js';

let app: TestApp;
let iterationId: number;
const today = new Date();
const dayFrom = (days: number) => new Date(today.getTime() + days * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  app = await createTestApp({ plugins: [iterationsPlugin, labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, issuesPlugin] });
  const cadence = await app.post(`/api/v4/groups/${app.group.id}/iteration_cadences`, { title: 'Sprints', automatic: false }, { token: 'owner' });
  expect(cadence.status).toBe(201);
  const iteration = await app.post(
    `/api/v4/groups/${app.group.id}/iteration_cadences/${cadence.body.id}/iterations`,
    { title: 'Sprint 1', start_date: dayFrom(-1), due_date: dayFrom(6) },
    { token: 'owner' },
  );
  expect(iteration.status).toBe(201);
  iterationId = iteration.body.id;
});
afterAll(() => app.close());

it('sets, filters by and removes an iteration of the project’s group', async () => {
  const base = `/api/v4/projects/${app.project.id}/issues`;
  const created = await app.post(base, { title: 'In a sprint', iteration_id: iterationId }, { token: 'maintainer' });
  expect(created.status).toBe(201);
  expect(created.body.iteration).toMatchObject({ id: iterationId, title: 'Sprint 1' });
  const listed = await app.get(base, { token: 'guest', query: { iteration_id: iterationId } });
  expect(listed.body.map((i: { title: string }) => i.title)).toEqual(['In a sprint']);
  const any = await app.get(base, { token: 'guest', query: { iteration_id: 'None' } });
  expect(any.body).toEqual([]);
  const cleared = await app.put(`${base}/${created.body.iid}`, { iteration_id: 0 }, { token: 'maintainer' });
  expect(cleared.body.iteration).toBeNull();
  const notes = await app.get(`${base}/${created.body.iid}/notes`, { token: 'guest' });
  expect(notes.body.map((n: { body: string }) => n.body)).toEqual([`removed iteration *iteration:${iterationId}`]);
  const unknown = await app.post(base, { title: 'No such sprint', iteration_id: 999999 }, { token: 'maintainer' });
  expect(unknown.body.iteration).toBeNull();
});

it('filters by the current iteration, by iteration title, and refuses both at once', async () => {
  const base = `/api/v4/projects/${app.project.id}/issues`;
  const cadences = await app.get(`/api/v4/groups/${app.group.id}/iteration_cadences`, { token: 'owner' });
  const later = await app.post(
    `/api/v4/groups/${app.group.id}/iteration_cadences/${cadences.body[0].id}/iterations`,
    { title: 'Sprint 2', start_date: dayFrom(10), due_date: dayFrom(16) },
    { token: 'owner' },
  );
  expect(later.status).toBe(201);
  await app.post(base, { title: 'Now', iteration_id: iterationId }, { token: 'maintainer' });
  await app.post(base, { title: 'Next', iteration_id: later.body.id }, { token: 'maintainer' });
  const titles = async (query: Record<string, string | number>, path = base) => {
    const res = await app.get(path, { token: 'guest', query });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.map((i: { title: string }) => i.title);
  };
  expect(await titles({ iteration_id: 'Current' })).toEqual(['Now']);
  expect(await titles({ iteration_id: 'current' })).toEqual(['Now']);
  expect(await titles({ iteration_id: 'Current' }, `/api/v4/groups/${app.group.id}/issues`)).toEqual(['Now']);
  expect(await titles({ iteration_title: 'Sprint 2' })).toEqual(['Next']);
  expect(await titles({ iteration_title: 'Sprint 9' })).toEqual([]);
  expect(await titles({ iteration_id: 'Any' })).toEqual(['Next', 'Now']);

  expect(await titles({ 'not[iteration_id]': 'Current' })).not.toContain('Now');
  expect(await titles({ 'not[iteration_id]': 'Current' })).toContain('Next');
  expect(await titles({ 'not[iteration_title]': 'Sprint 2' })).not.toContain('Next');
  expect(await titles({ 'not[iteration_title]': 'Sprint 2' })).toContain('Now');
  expect(await titles({ 'not[iteration_id]': 'None' })).toEqual(['Next', 'Now']);

  const both = await app.get(base, { token: 'guest', query: { iteration_id: 'Current', iteration_title: 'Sprint 2' } });
  expect(both.status).toBe(400);
  expect(both.body).toEqual({ error: 'iteration_id, iteration_title are mutually exclusive' });
  const bad = await app.get(base, { token: 'guest', query: { iteration_id: 'Later' } });
  expect(bad.status).toBe(400);
  expect(bad.body).toEqual({ error: 'iteration_id does not have a valid value' });
});

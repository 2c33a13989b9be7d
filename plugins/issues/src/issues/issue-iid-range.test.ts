/**
 * A chosen iid stays within what the iid column holds, with room for the iids counted after
 * it, so no create can leave a project unable to take new issues.
 */
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuesPlugin } from '../plugin.js';

let app: TestApp;
let base: string;
const create = (body: Record<string, unknown>, token = 'owner') => app.post(`${base}/issues`, body, { token });

beforeAll(async () => {
  app = await createTestApp({ plugins: [labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, issuesPlugin] });
  base = `/api/v4/projects/${app.project.id}`;
});
afterAll(() => app.close());

describe('chosen iids', () => {
  it.each([2147483648, 2147483647, 9007199254740991, 2000000001, 0, -1])('refuses iid %j with 400 and stores nothing', async (iid) => {
    expect(await create({ title: 'a', iid })).toMatchObject({ status: 400, body: { error: 'iid does not have a valid value' } });
    expect(await create({ title: 'a', iid: String(iid) }, 'admin')).toMatchObject({ status: 400, body: { error: 'iid does not have a valid value' } });
    expect((await app.get(`${base}/issues`, { token: 'owner' })).body).toEqual([]);
  });

  it('takes the highest iid it allows, and later creates still get the next ones', async () => {
    expect(await create({ title: 'chosen', iid: 2000000000 })).toMatchObject({ status: 201, body: { iid: 2000000000 } });
    const next = await create({ title: 'after' }, 'developer');
    expect(next).toMatchObject({ status: 201, body: { iid: 2000000001 } });
    const path = `${base}/issues/2000000001`;
    expect((await app.get(path, { token: 'owner' })).status).toBe(200);
    expect((await app.put(path, { title: 'renamed' }, { token: 'owner' })).status).toBe(200);
    expect(await create({ title: 'still works' }, 'developer')).toMatchObject({ status: 201, body: { iid: 2000000002 } });
    expect((await app.delete(path, { token: 'owner' })).status).toBe(204);
  });
});

describe('deleted iids', () => {
  it('never gives a deleted issue’s iid again, chosen or counted', async () => {
    const project = await app.post('/api/v4/projects', { name: 'Deleted iids' }, { token: 'owner' });
    expect(project.status).toBe(201);
    const issues = `/api/v4/projects/${project.body.id}/issues`;
    const open = (body: Record<string, unknown>) => app.post(issues, body, { token: 'owner' });
    expect(await open({ title: 'first' })).toMatchObject({ status: 201, body: { iid: 1 } });
    expect(await open({ title: 'highest' })).toMatchObject({ status: 201, body: { iid: 2 } });
    expect((await app.delete(`${issues}/2`, { token: 'owner' })).status).toBe(204);
    expect(await open({ title: 'after a delete' })).toMatchObject({ status: 201, body: { iid: 3 } });

    expect(await open({ title: 'chosen', iid: 10 })).toMatchObject({ status: 201, body: { iid: 10 } });
    expect((await app.delete(`${issues}/10`, { token: 'owner' })).status).toBe(204);
    expect(await open({ title: 'after a chosen one' })).toMatchObject({ status: 201, body: { iid: 11 } });

    // Concurrent creates after a delete each take their own iid, past every one given.
    expect((await app.delete(`${issues}/11`, { token: 'owner' })).status).toBe(204);
    const together = await Promise.all(Array.from({ length: 6 }, (_, index) => open({ title: `together ${index}` })));
    expect(together.map((res) => res.status)).toEqual(Array(6).fill(201));
    expect(together.map((res) => res.body.iid).sort((a, b) => a - b)).toEqual([12, 13, 14, 15, 16, 17]);
  });
});

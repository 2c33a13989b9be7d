import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuesPlugin } from '../plugin.js';

let app: TestApp;
let groupId: number;
let hiddenProjectId: number;

const countsFor = async (token: string) => {
  const res = await app.get(`/api/v4/groups/${groupId}/labels`, { token, query: { with_counts: true } });
  expect(res.status).toBe(200);
  return res.body.map((label: { name: string; open_issues_count: number; closed_issues_count: number }) => [
    label.name,
    label.open_issues_count,
    label.closed_issues_count,
  ]);
};

beforeAll(async () => {
  app = await createTestApp({ plugins: [labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, issuesPlugin] });
  const group = await app.post('/api/v4/groups', { name: 'Tally', path: 'tally', visibility: 'public' }, { token: 'admin' });
  expect(group.status).toBe(201);
  groupId = group.body.id;
  for (const name of ['tally', 'spare']) {
    expect((await app.post(`/api/v4/groups/${groupId}/labels`, { name, color: '#123456' }, { token: 'admin' })).status).toBe(201);
  }
  const project = async (path: string, visibility: string) => {
    const res = await app.post('/api/v4/projects', { name: path, path, namespace_id: groupId, visibility }, { token: 'admin' });
    expect(res.status).toBe(201);
    return res.body.id as number;
  };
  const issue = async (projectId: number, title: string, labels: string, close = false, confidential = false) => {
    const res = await app.post(`/api/v4/projects/${projectId}/issues`, { title, labels, confidential }, { token: 'admin' });
    expect(res.status).toBe(201);
    if (close) expect((await app.put(`/api/v4/projects/${projectId}/issues/${res.body.iid}`, { state_event: 'close' }, { token: 'admin' })).status).toBe(200);
  };
  const open = await project('open', 'public');
  hiddenProjectId = await project('hidden', 'private');
  await issue(open, 'Seen', 'tally');
  await issue(open, 'Seen and closed', 'tally,spare', true);
  await issue(open, 'Confidential', 'tally', false, true);
  await issue(hiddenProjectId, 'Hidden', 'tally');
  await issue(hiddenProjectId, 'Hidden too', 'spare');
});
afterAll(() => app.close());

describe('group label counts', () => {
  it('count the issues of the projects each caller sees, confidential ones only where they may, each caller in turn', async () => {
    const outside = [
      ['spare', 0, 1],
      ['tally', 1, 1],
    ];
    expect(await countsFor('nonMember')).toEqual(outside);
    expect(await countsFor('admin')).toEqual([
      ['spare', 1, 1],
      ['tally', 3, 1],
    ]);
    expect(await countsFor('developer')).toEqual(outside);
    const member = await app.post(`/api/v4/projects/${hiddenProjectId}/members`, { user_id: app.users.developer.id, access_level: 30 }, { token: 'admin' });
    expect(member.status).toBe(201);
    expect(await countsFor('developer')).toEqual([
      ['spare', 1, 1],
      ['tally', 2, 1],
    ]);
    expect(await countsFor('nonMember')).toEqual(outside);
  });
});

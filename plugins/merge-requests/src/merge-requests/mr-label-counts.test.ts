import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeRequestsPlugin } from '../plugin.js';

let app: TestApp;
let groupId: number;
let hiddenProjectId: number;

const countsFor = async (token: string) => {
  const res = await app.get(`/api/v4/groups/${groupId}/labels`, { token, query: { with_counts: true } });
  expect(res.status).toBe(200);
  return res.body.map((label: { name: string; open_merge_requests_count: number }) => [label.name, label.open_merge_requests_count]);
};

beforeAll(async () => {
  app = await createTestApp({ plugins: [repositoriesPlugin, labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, mergeRequestsPlugin] });
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
  const commit = async (projectId: number, branch: string, file: string, from?: string) => {
    const res = await app.post(
      `/api/v4/projects/${projectId}/repository/commits`,
      {
        branch,
        ...(from ? { start_branch: from } : {}),
        commit_message: `Add ${file}`,
        actions: [{ action: 'create', file_path: file, content: `${file}\n` }],
      },
      { token: 'admin' },
    );
    expect(res.status).toBe(201);
  };
  const mergeRequest = async (projectId: number, branch: string, labels: string, close = false) => {
    await commit(projectId, branch, `${branch}.txt`, 'main');
    const res = await app.post(
      `/api/v4/projects/${projectId}/merge_requests`,
      { title: branch, source_branch: branch, target_branch: 'main', labels },
      { token: 'admin' },
    );
    expect(res.status).toBe(201);
    if (close) {
      const closed = await app.put(`/api/v4/projects/${projectId}/merge_requests/${res.body.iid}`, { state_event: 'close' }, { token: 'admin' });
      expect(closed.status).toBe(200);
    }
  };
  const open = await project('open', 'public');
  hiddenProjectId = await project('hidden', 'private');
  for (const id of [open, hiddenProjectId]) await commit(id, 'main', 'README.md');
  await mergeRequest(open, 'seen', 'tally');
  await mergeRequest(open, 'seen-closed', 'tally,spare', true);
  await mergeRequest(hiddenProjectId, 'hidden', 'tally');
  await mergeRequest(hiddenProjectId, 'hidden-too', 'spare');
});
afterAll(() => app.close());

describe('group label counts', () => {
  it('count the open merge requests of the projects each caller sees, each caller in turn', async () => {
    const outside = [
      ['spare', 0],
      ['tally', 1],
    ];
    expect(await countsFor('nonMember')).toEqual(outside);
    expect(await countsFor('admin')).toEqual([
      ['spare', 1],
      ['tally', 2],
    ]);
    expect(await countsFor('developer')).toEqual(outside);
    const member = await app.post(`/api/v4/projects/${hiddenProjectId}/members`, { user_id: app.users.developer.id, access_level: 30 }, { token: 'admin' });
    expect(member.status).toBe(201);
    expect(await countsFor('developer')).toEqual([
      ['spare', 1],
      ['tally', 2],
    ]);
    expect(await countsFor('nonMember')).toEqual(outside);
  });
});

import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuesPlugin } from '../plugin.js';

describe('issues follow label and milestone promotion', () => {
  let app: TestApp;
  let projectA: string;
  let projectB: string;

  beforeAll(async () => {
    app = await createTestApp({ plugins: [labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, issuesPlugin] });
    projectA = `/api/v4/projects/${app.project.id}`;
    const other = await app.post('/api/v4/projects', { name: 'Other', namespace_id: app.group.id }, { token: 'owner' });
    projectB = `/api/v4/projects/${other.body.id}`;
  });
  afterAll(() => app?.close());

  const issue = async (project: string, iid: number) => (await app.get(`${project}/issues/${iid}`, { token: 'owner' })).body;

  it('keeps each issue labelled once with the group label its project labels merged into', async () => {
    await app.post(`${projectA}/labels`, { name: 'dup', color: '#111111' }, { token: 'owner' });
    await app.post(`${projectB}/labels`, { name: 'dup', color: '#222222' }, { token: 'owner' });
    const group = (await app.post(`/api/v4/groups/${app.group.id}/labels`, { name: 'dup', color: '#333333' }, { token: 'owner' })).body;
    await app.post(`${projectA}/labels`, { name: 'other', color: '#444444' }, { token: 'owner' });
    const a = (await app.post(`${projectA}/issues`, { title: 'A', labels: 'dup,other' }, { token: 'owner' })).body;
    const b = (await app.post(`${projectB}/issues`, { title: 'B', labels: 'dup' }, { token: 'owner' })).body;

    // A list kept B's answer (with its label links) before the merge.
    const labelsListed = async () =>
      (await app.get(`${projectB}/issues`, { token: 'owner', query: { with_labels_details: true } })).body.map((item: { labels: { id: number }[] }) =>
        item.labels.map((label) => label.id),
      );
    expect(await labelsListed()).toEqual([[expect.any(Number)]]);

    const promoted = await app.put(`${projectA}/labels/dup/promote`, undefined, { token: 'owner' });
    expect(promoted.status).toBe(200);
    expect(promoted.body.id).toBe(group.id);

    expect((await issue(projectA, a.iid)).labels).toEqual(['dup', 'other']);
    expect((await issue(projectB, b.iid)).labels).toEqual(['dup']);
    expect(await labelsListed()).toEqual([[group.id]]);
    const listed = await app.get(`${projectA}/issues`, { token: 'owner', query: { labels: 'dup', with_labels_details: true } });
    expect(listed.body.map((item: { labels: { id: number }[] }) => item.labels.map((label) => label.id))).toEqual([[group.id, expect.any(Number)]]);
    const counted = await app.get(`/api/v4/groups/${app.group.id}/labels`, { token: 'owner', query: { with_counts: true, search: 'dup' } });
    expect(counted.body).toMatchObject([{ id: group.id, open_issues_count: 2 }]);
  });

  it('moves issues of the merged project milestones to the new group milestone', async () => {
    const inA = (await app.post(`${projectA}/milestones`, { title: 'v1' }, { token: 'owner' })).body;
    const inB = (await app.post(`${projectB}/milestones`, { title: 'v1' }, { token: 'owner' })).body;
    const a = (await app.post(`${projectA}/issues`, { title: 'A1', milestone_id: inA.id }, { token: 'owner' })).body;
    const b = (await app.post(`${projectB}/issues`, { title: 'B1', milestone_id: inB.id }, { token: 'owner' })).body;

    const promoted = await app.post(`${projectA}/milestones/${inA.id}/promote`, undefined, { token: 'owner' });
    expect(promoted.status).toBe(200);
    const [groupMilestone] = (await app.get(`/api/v4/groups/${app.group.id}/milestones`, { token: 'owner', query: { title: 'v1' } })).body;
    expect(groupMilestone).toMatchObject({ title: 'v1', group_id: app.group.id });

    expect((await issue(projectA, a.iid)).milestone).toMatchObject({ id: groupMilestone.id, group_id: app.group.id });
    expect((await issue(projectB, b.iid)).milestone).toMatchObject({ id: groupMilestone.id, group_id: app.group.id });
    const ofMilestone = await app.get(`/api/v4/groups/${app.group.id}/milestones/${groupMilestone.id}/issues`, { token: 'owner' });
    expect(ofMilestone.body.map((item: { title: string }) => item.title).sort()).toEqual(['A1', 'B1']);
  });
});

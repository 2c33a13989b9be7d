import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { issuesPlugin } from '@forgekit/plugin-issues';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { mergeRequestsPlugin } from '@forgekit/plugin-merge-requests';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhooksPlugin } from '../plugin.js';
import { startReceiver, type Receiver } from '../testing/receiver.js';

/**
 * `POST .../hooks/:hook_id/test/:trigger` for each trigger GitLab's TestHooks::ProjectService knows:
 * GitLab's text while the project has nothing to describe, then a sample of its real data, sent
 * with the trigger's event header; and `Testing not available for this hook` for the others.
 */
describe('test deliveries for every trigger', () => {
  let app: TestApp;
  let receiver: Receiver;
  let base: string;
  let groupHooks: string;
  let groupHookId: number;
  let projectHooks: string;
  let projectHookId: number;

  const testGroupHook = (trigger: string) => app.post(`${groupHooks}/${groupHookId}/test/${trigger}`, {}, { token: 'owner' });
  const testProjectHook = (trigger: string) => app.post(`${projectHooks}/${projectHookId}/test/${trigger}`, {}, { token: 'maintainer' });
  const outcome = async (sent: Promise<{ status: number; body: unknown }>) => {
    const res = await sent;
    return [res.status, res.body];
  };
  const lastSample = (event: string) => receiver.waitFor((r) => r.headers['x-gitlab-event'] === event && r.path === '/sample');

  beforeAll(async () => {
    app = await createTestApp({
      plugins: [repositoriesPlugin, labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, issuesPlugin, mergeRequestsPlugin, webhooksPlugin],
    });
    base = `/api/v4/projects/${app.project.id}`;
    receiver = await startReceiver();
    // Many tests a minute: the test endpoint's rate limit is off.
    const settings = { allow_local_requests_from_web_hooks_and_services: true, web_hook_test_api_endpoint_rate_limit: false };
    expect((await app.put('/api/v4/application/settings', settings, { token: 'admin' })).status).toBe(200);
    groupHooks = `/api/v4/groups/${app.group.id}/hooks`;
    projectHooks = `${base}/hooks`;
    // No event switch on: only test deliveries reach the receiver.
    const off = { push_events: false };
    groupHookId = (await app.post(groupHooks, { url: receiver.url('/sample'), ...off }, { token: 'owner' })).body.id;
    projectHookId = (await app.post(projectHooks, { url: receiver.url('/sample'), ...off }, { token: 'maintainer' })).body.id;
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });

  it("answers GitLab's text for a group without a project with commits, for every trigger it can test", async () => {
    for (const trigger of ['issues_events', 'note_events', 'emoji_events', 'job_events'])
      expect(await outcome(testGroupHook(trigger))).toEqual([422, { message: 'Ensure the group has a project with commits.' }]);
    const commit = await app.post(
      `${base}/repository/commits`,
      { branch: 'main', commit_message: 'Initial', actions: [{ action: 'create', file_path: 'README.md', content: 'hi\n' }] },
      { token: 'maintainer' },
    );
    expect(commit.status).toBe(201);
  });

  it("answers GitLab's texts while the project has nothing to describe", async () => {
    const texts: Record<string, string> = {
      issues_events: 'Ensure the project has issues.',
      confidential_issues_events: 'Ensure the project has issues.',
      note_events: 'Ensure the project has notes.',
      emoji_events: 'Ensure the project has notes.',
      merge_requests_events: 'Ensure the project has merge requests.',
      job_events: 'Ensure the project has CI jobs.',
      pipeline_events: 'Ensure the project has CI pipelines.',
      releases_events: 'Ensure the project has releases.',
    };
    for (const [trigger, message] of Object.entries(texts)) {
      expect(await outcome(testGroupHook(trigger)), trigger).toEqual([422, { message }]);
      expect(await outcome(testProjectHook(trigger)), trigger).toEqual([422, { message }]);
    }
    expect(receiver.received).toEqual([]);
  });

  it('answers Testing not available for this hook for triggers GitLab has no sample of', async () => {
    for (const trigger of [
      'confidential_note_events',
      'deployment_events',
      'feature_flag_events',
      'member_events',
      'subgroup_events',
      'milestone_events',
      'repository_update_events',
    ]) {
      expect(await outcome(testGroupHook(trigger)), trigger).toEqual([422, { message: 'Testing not available for this hook' }]);
      expect(await outcome(testProjectHook(trigger)), trigger).toEqual([422, { message: 'Testing not available for this hook' }]);
    }
  });

  it("sends the project's latest issue, opened, for issues and confidential issues", async () => {
    await app.post(`${base}/issues`, { title: 'Older' }, { token: 'developer' });
    const latest = await app.post(`${base}/issues`, { title: 'Latest', confidential: true }, { token: 'developer' });
    expect(latest.status).toBe(201);
    expect(await outcome(testGroupHook('issues_events'))).toEqual([201, { message: '201 Created' }]);
    const sample = await lastSample('Issue Hook');
    expect(sample.body).toMatchObject({
      object_kind: 'issue',
      event_type: 'confidential_issue',
      user: { id: app.users.owner.id },
      project: { id: app.project.id },
      object_attributes: { id: latest.body.id, iid: latest.body.iid, title: 'Latest', confidential: true, action: 'open' },
    });
    expect(await outcome(testProjectHook('confidential_issues_events'))).toEqual([201, { message: '201 Created' }]);
    const confidential = await lastSample('Confidential Issue Hook');
    expect(confidential.body).toMatchObject({ object_kind: 'issue', user: { id: app.users.maintainer.id }, object_attributes: { id: latest.body.id } });
  });

  it("sends the project's latest comment for notes, and a thumbs up on it for emoji", async () => {
    const issue = await app.post(`${base}/issues`, { title: 'Discussed' }, { token: 'developer' });
    await app.post(`${base}/issues/${issue.body.iid}/notes`, { body: 'First comment' }, { token: 'developer' });
    const latest = await app.post(`${base}/issues/${issue.body.iid}/notes`, { body: 'Latest comment' }, { token: 'developer' });
    expect(latest.status).toBe(201);
    // A system note (the issue closed) is newer, but describes nothing a hook would send.
    await app.put(`${base}/issues/${issue.body.iid}`, { state_event: 'close' }, { token: 'developer' });

    expect(await outcome(testProjectHook('note_events'))).toEqual([201, { message: '201 Created' }]);
    const note = await lastSample('Note Hook');
    expect(note.body).toMatchObject({
      object_kind: 'note',
      event_type: 'note',
      user: { id: app.users.maintainer.id },
      project_id: app.project.id,
      object_attributes: { id: latest.body.id, note: 'Latest comment', noteable_type: 'Issue', action: 'create' },
      issue: { id: issue.body.id, title: 'Discussed' },
    });

    expect(await outcome(testGroupHook('emoji_events'))).toEqual([201, { message: '201 Created' }]);
    const emoji = await lastSample('Emoji Hook');
    expect(emoji.body).toMatchObject({
      object_kind: 'emoji',
      event_type: 'award',
      user: { id: app.users.owner.id },
      object_attributes: { id: 1, name: 'thumbsup', user_id: app.users.owner.id, awardable_type: 'Note', awardable_id: latest.body.id },
      note: { id: latest.body.id, note: 'Latest comment' },
      issue: { id: issue.body.id },
    });
    expect(emoji.body.note).not.toHaveProperty('action');
  });

  it("answers with the receiver's body when it does not answer 2xx, and records the test in the history", async () => {
    receiver.answerWith(500, 'Error response');
    try {
      expect(await outcome(testProjectHook('issues_events'))).toEqual([422, { message: 'Error response' }]);
    } finally {
      receiver.answerWith(200);
    }
    const events = await app.get(`${projectHooks}/${projectHookId}/events`, { token: 'maintainer' });
    expect(events.body[0]).toMatchObject({ trigger: 'issue_hooks', response_status: '500', response_body: 'Error response' });
  });
});

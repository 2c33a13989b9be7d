import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { issuesPlugin } from '@forgekit/plugin-issues';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { webhooksPlugin } from '../plugin.js';
import { startReceiver, type Receiver } from '../testing/receiver.js';

describe('issue and milestone hooks', () => {
  let app: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    app = await createTestApp({ plugins: [labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, issuesPlugin, webhooksPlugin] });
    receiver = await startReceiver();
    await app.put('/api/v4/application/settings', { allow_local_requests_from_web_hooks_and_services: true }, { token: 'admin' });
    await app.post(
      `/api/v4/groups/${app.group.id}/hooks`,
      { url: receiver.url('/issues'), push_events: false, issues_events: true, milestone_events: true },
      { token: 'owner' },
    );
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });

  it('delivers GitLab’s issue payload when an issue is opened and closed', async () => {
    const issue = await app.post(`/api/v4/projects/${app.project.id}/issues`, { title: 'Broken build' }, { token: 'developer' });
    expect(issue.status).toBe(201);
    const opened = await receiver.waitFor((r) => r.body?.object_attributes?.action === 'open');
    expect(opened.headers['x-service-event']).toBe('Issue Hook');
    expect(opened.body).toMatchObject({
      object_kind: 'issue',
      event_type: 'issue',
      user: { id: app.users.developer.id, username: 'developer' },
      project: { id: app.project.id, path_with_namespace: 'test-group/test-project' },
      object_attributes: {
        id: issue.body.id,
        iid: issue.body.iid,
        title: 'Broken build',
        state: 'opened',
        url: `http://localhost/test-group/test-project/-/issues/${issue.body.iid}`,
      },
    });
    await app.put(`/api/v4/projects/${app.project.id}/issues/${issue.body.iid}`, { state_event: 'close' }, { token: 'developer' });
    const closed = await receiver.waitFor((r) => r.body?.object_attributes?.action === 'close');
    expect(closed.body.object_attributes.state).toBe('closed');
  });

  it('leaves confidential issues to hooks that ask for them', async () => {
    await app.post(`/api/v4/projects/${app.project.id}/issues`, { title: 'Secret', confidential: true }, { token: 'developer' });
    const milestone = await app.post(`/api/v4/projects/${app.project.id}/milestones`, { title: 'v1' }, { token: 'developer' });
    // Which hooks get an event is decided when it is published, before the request that caused it answers.
    const delivered = await receiver.waitFor((r) => r.body?.object_kind === 'milestone');
    expect(delivered.body).toMatchObject({ object_kind: 'milestone', object_attributes: { id: milestone.body.id, title: 'v1', action: 'create' } });
    expect(receiver.received.some((r) => r.body?.object_attributes?.title === 'Secret')).toBe(false);
  });
});

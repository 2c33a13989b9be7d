import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { issuesPlugin } from '@forgekit/plugin-issues';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { mergeRequestsPlugin } from '@forgekit/plugin-merge-requests';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { wikisPlugin } from '@forgekit/plugin-wikis';
import { webhooksPlugin } from '../plugin.js';
import { startReceiver, type Received, type Receiver } from '../testing/receiver.js';

describe('merge request, note, emoji, member, subgroup and wiki page hooks', () => {
  let app: TestApp;
  let receiver: Receiver;
  let base: string;
  let groupHookId: number;

  const commit = async (branch: string, start?: string) => {
    const res = await app.post(
      `${base}/repository/commits`,
      {
        branch,
        ...(start ? { start_branch: start } : {}),
        commit_message: `Add ${branch}`,
        actions: [{ action: 'create', file_path: `${branch}.txt`, content: branch }],
      },
      { token: 'maintainer' },
    );
    expect(res.status).toBe(201);
    return res.body;
  };

  beforeAll(async () => {
    app = await createTestApp({
      plugins: [
        repositoriesPlugin,
        labelsPlugin,
        milestonesPlugin,
        milestoneEventsPlugin,
        notesPlugin,
        issuesPlugin,
        mergeRequestsPlugin,
        wikisPlugin,
        webhooksPlugin,
      ],
    });
    base = `/api/v4/projects/${app.project.id}`;
    receiver = await startReceiver();
    await app.put('/api/v4/application/settings', { allow_local_requests_from_web_hooks_and_services: true }, { token: 'admin' });
    const hook = await app.post(
      `/api/v4/groups/${app.group.id}/hooks`,
      {
        url: receiver.url('/group'),
        push_events: false,
        merge_requests_events: true,
        note_events: true,
        member_events: true,
        emoji_events: true,
        subgroup_events: true,
        wiki_page_events: true,
      },
      { token: 'owner' },
    );
    expect(hook.status).toBe(201);
    groupHookId = hook.body.id;
    const secret = await app.post(
      `${base}/hooks`,
      { url: receiver.url('/confidential'), push_events: false, confidential_note_events: true },
      { token: 'maintainer' },
    );
    expect(secret.status).toBe(201);
    await commit('main');
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });

  it('tests a hook with the latest merge request, once there is one', async () => {
    const test = () => app.post(`/api/v4/groups/${app.group.id}/hooks/${groupHookId}/test/merge_requests_events`, {}, { token: 'owner' });
    const none = await test();
    expect([none.status, none.body]).toEqual([422, { message: 'Ensure the project has merge requests.' }]);
    await commit('sample', 'main');
    const first = await app.post(`${base}/merge_requests`, { title: 'First', source_branch: 'sample', target_branch: 'main' }, { token: 'developer' });
    await app.put(`${base}/merge_requests/${first.body.iid}`, { state_event: 'close' }, { token: 'developer' });
    const tested = await test();
    expect([tested.status, tested.body]).toEqual([201, { message: '201 Created' }]);
    // GitLab describes the latest merge request as opened, whatever its state.
    const sample = await receiver.waitFor(
      (r) => r.body?.object_kind === 'merge_request' && r.body.object_attributes.action === 'open' && r.body.object_attributes.state === 'closed',
    );
    expect(sample.headers['x-service-event']).toBe('Merge Request Hook');
    expect(sample.body).toMatchObject({ user: { id: app.users.owner.id }, object_attributes: { id: first.body.id, title: 'First', state: 'closed' } });
  });

  it('delivers open, update, close, reopen and merge of a merge request', async () => {
    const head = await commit('feature', 'main');
    const opened = await app.post(`${base}/merge_requests`, { title: 'Add feature', source_branch: 'feature', target_branch: 'main' }, { token: 'developer' });
    expect(opened.status).toBe(201);
    const item = `${base}/merge_requests/${opened.body.iid}`;
    const ofThis = (r: Received, action: string) =>
      r.body?.object_kind === 'merge_request' && r.body.object_attributes.id === opened.body.id && r.body.object_attributes.action === action;
    const open = await receiver.waitFor((r) => ofThis(r, 'open'));
    expect(open.path).toBe('/group');
    expect(open.headers['x-service-event']).toBe('Merge Request Hook');
    expect(open.headers['x-gitlab-event']).toBe('Merge Request Hook');
    expect(open.body).toMatchObject({
      object_kind: 'merge_request',
      event_type: 'merge_request',
      user: { id: app.users.developer.id, username: 'developer' },
      project: { id: app.project.id, path_with_namespace: 'test-group/test-project' },
      object_attributes: {
        id: opened.body.id,
        iid: opened.body.iid,
        title: 'Add feature',
        state: 'opened',
        source_branch: 'feature',
        target_branch: 'main',
        source_project_id: app.project.id,
        target_project_id: app.project.id,
        author_id: app.users.developer.id,
        url: `http://localhost/test-group/test-project/-/merge_requests/${opened.body.iid}`,
        last_commit: { id: head.id, title: 'Add feature' },
        draft: false,
      },
      changes: {},
      repository: { name: app.project.name },
    });

    await app.put(item, { title: 'Add the feature' }, { token: 'developer' });
    const update = await receiver.waitFor((r) => ofThis(r, 'update'));
    expect(update.body.changes.title).toEqual({ previous: 'Add feature', current: 'Add the feature' });
    expect(update.body.object_attributes.title).toBe('Add the feature');

    await app.put(item, { state_event: 'close' }, { token: 'developer' });
    const close = await receiver.waitFor((r) => ofThis(r, 'close'));
    expect(close.body.object_attributes.state).toBe('closed');
    await app.put(item, { state_event: 'reopen' }, { token: 'developer' });
    const reopen = await receiver.waitFor((r) => ofThis(r, 'reopen'));
    expect(reopen.body.object_attributes.state).toBe('opened');

    const merged = await app.put(`${item}/merge`, {}, { token: 'maintainer' });
    expect(merged.status).toBe(200);
    const merge = await receiver.waitFor((r) => ofThis(r, 'merge'));
    expect(merge.body).toMatchObject({ user: { id: app.users.maintainer.id }, object_attributes: { state: 'merged', iid: opened.body.iid } });
    expect(receiver.received.every((r) => r.path === '/group')).toBe(true);
  });

  it('delivers comments on merge requests and issues, and internal ones only to confidential note hooks', async () => {
    await commit('notes', 'main');
    const mr = await app.post(`${base}/merge_requests`, { title: 'Discuss', source_branch: 'notes', target_branch: 'main' }, { token: 'developer' });
    const note = await app.post(`${base}/merge_requests/${mr.body.iid}/notes`, { body: 'Looks good' }, { token: 'reporter' });
    expect(note.status).toBe(201);
    const delivered = await receiver.waitFor((r) => r.body?.object_kind === 'note' && r.body.object_attributes.id === note.body.id);
    expect(delivered.headers['x-service-event']).toBe('Note Hook');
    expect(delivered.body).toMatchObject({
      object_kind: 'note',
      event_type: 'note',
      user: { id: app.users.reporter.id },
      project_id: app.project.id,
      object_attributes: {
        note: 'Looks good',
        noteable_type: 'MergeRequest',
        noteable_id: mr.body.id,
        author_id: app.users.reporter.id,
        system: false,
        action: 'create',
        url: `http://localhost/test-group/test-project/-/merge_requests/${mr.body.iid}#note_${note.body.id}`,
      },
      merge_request: { id: mr.body.id, iid: mr.body.iid, title: 'Discuss' },
    });

    const issue = await app.post(`${base}/issues`, { title: 'Bug' }, { token: 'developer' });
    const internal = await app.post(`${base}/issues/${issue.body.iid}/notes`, { body: 'Between us', internal: true }, { token: 'developer' });
    expect(internal.status).toBe(201);
    const confidential = await receiver.waitFor((r) => r.body?.object_kind === 'note' && r.body.object_attributes.id === internal.body.id);
    expect(confidential.path).toBe('/confidential');
    expect(confidential.headers['x-service-event']).toBe('Confidential Note Hook');
    expect(confidential.body).toMatchObject({
      event_type: 'confidential_note',
      object_attributes: { note: 'Between us', internal: true, noteable_type: 'Issue' },
      issue: { id: issue.body.id, iid: issue.body.iid, title: 'Bug' },
    });

    const edited = await app.put(`${base}/issues/${issue.body.iid}/notes/${internal.body.id}`, { body: 'Between us, edited' }, { token: 'developer' });
    expect(edited.status).toBe(200);
    await receiver.waitFor((r) => r.body?.object_attributes?.note === 'Between us, edited' && r.body.object_attributes.action === 'update');
    // Internal notes never reach a hook that asked only for note events; system notes reach none.
    expect(
      receiver.received
        .filter((r) => r.body?.object_kind === 'note' && r.body.object_attributes.id === internal.body.id)
        .every((r) => r.path === '/confidential'),
    ).toBe(true);
    expect(receiver.received.some((r) => r.body?.object_kind === 'note' && r.body.object_attributes.system)).toBe(false);
  });

  it('delivers awards given and taken on an issue', async () => {
    const issue = await app.post(`${base}/issues`, { title: 'Liked' }, { token: 'developer' });
    const award = await app.post(`${base}/issues/${issue.body.iid}/award_emoji`, { name: 'thumbsup' }, { token: 'reporter' });
    expect(award.status).toBe(201);
    const given = await receiver.waitFor((r) => r.body?.object_kind === 'emoji' && r.body.event_type === 'award');
    expect(given.headers['x-service-event']).toBe('Emoji Hook');
    expect(given.body).toMatchObject({
      user: { id: app.users.reporter.id },
      project_id: app.project.id,
      object_attributes: {
        id: award.body.id,
        name: 'thumbsup',
        user_id: app.users.reporter.id,
        awardable_type: 'Issue',
        awardable_id: issue.body.id,
        awarded_on_url: `http://localhost/test-group/test-project/-/issues/${issue.body.iid}`,
      },
      issue: { id: issue.body.id, title: 'Liked' },
    });
    expect((await app.delete(`${base}/issues/${issue.body.iid}/award_emoji/${award.body.id}`, { token: 'reporter' })).status).toBe(204);
    const taken = await receiver.waitFor((r) => r.body?.object_kind === 'emoji' && r.body.event_type === 'revoke');
    expect(taken.body.object_attributes).toMatchObject({ id: award.body.id, name: 'thumbsup' });
  });

  it('delivers additions, changes and removals of group members', async () => {
    const user = app.users.nonMember;
    const added = await app.post(`/api/v4/groups/${app.group.id}/members`, { user_id: user.id, access_level: 30 }, { token: 'owner' });
    expect(added.status).toBe(201);
    const add = await receiver.waitFor((r) => r.body?.event_name === 'user_add_to_group');
    expect(add.headers['x-service-event']).toBe('Member Hook');
    expect(add.body).toMatchObject({
      group_name: app.group.name,
      group_path: app.group.path,
      group_id: app.group.id,
      user_username: user.username,
      user_id: user.id,
      group_access: 'Developer',
      expires_at: null,
    });
    await app.put(`/api/v4/groups/${app.group.id}/members/${user.id}`, { access_level: 40, expires_at: '2099-01-31' }, { token: 'owner' });
    const update = await receiver.waitFor((r) => r.body?.event_name === 'user_update_for_group');
    expect(update.body).toMatchObject({ group_access: 'Maintainer', expires_at: '2099-01-31' });
    await app.delete(`/api/v4/groups/${app.group.id}/members/${user.id}`, { token: 'owner' });
    const removed = await receiver.waitFor((r) => r.body?.event_name === 'user_remove_from_group');
    expect(removed.body).toMatchObject({ user_id: user.id, group_id: app.group.id });
  });

  it('delivers a subgroup created in the group', async () => {
    const sub = await app.post('/api/v4/groups', { name: 'Inner', path: 'inner', parent_id: app.group.id }, { token: 'owner' });
    expect(sub.status).toBe(201);
    const created = await receiver.waitFor((r) => r.body?.event_name === 'subgroup_create');
    expect(created.headers['x-service-event']).toBe('Subgroup Hook');
    expect(created.body).toMatchObject({
      name: 'Inner',
      path: 'inner',
      full_path: 'test-group/inner',
      group_id: sub.body.id,
      parent_group_id: app.group.id,
      parent_name: app.group.name,
      parent_path: 'test-group',
      parent_full_path: 'test-group',
    });
  });

  it('delivers wiki pages created, updated and deleted', async () => {
    const wiki = `${base}/wikis`;
    expect((await app.post(wiki, { title: 'Setup guide', content: 'Step one' }, { token: 'developer' })).status).toBe(201);
    const created = await receiver.waitFor((r) => r.body?.object_kind === 'wiki_page' && r.body.object_attributes.action === 'create');
    expect(created.headers['x-service-event']).toBe('Wiki Page Hook');
    expect(created.body).toMatchObject({
      user: { id: app.users.developer.id },
      project: { id: app.project.id },
      wiki: { web_url: 'http://localhost/test-group/test-project/-/wikis/home', path_with_namespace: 'test-group/test-project.wiki' },
      object_attributes: {
        title: 'Setup guide',
        slug: 'Setup-guide',
        content: 'Step one',
        format: 'markdown',
        message: 'developer created page: Setup guide',
        url: 'http://localhost/test-group/test-project/-/wikis/Setup-guide',
      },
    });
    expect((await app.put(`${wiki}/Setup-guide`, { content: 'Step two' }, { token: 'developer' })).status).toBe(200);
    const updated = await receiver.waitFor((r) => r.body?.object_kind === 'wiki_page' && r.body.object_attributes.action === 'update');
    expect(updated.body.object_attributes).toMatchObject({ slug: 'Setup-guide', content: 'Step two' });
    expect((await app.delete(`${wiki}/Setup-guide`, { token: 'maintainer' })).status).toBe(204);
    const deleted = await receiver.waitFor((r) => r.body?.object_kind === 'wiki_page' && r.body.object_attributes.action === 'delete');
    expect(deleted.body.object_attributes).toMatchObject({ slug: 'Setup-guide', content: 'Step two', message: 'maintainer deleted page: Setup guide' });
  });
});

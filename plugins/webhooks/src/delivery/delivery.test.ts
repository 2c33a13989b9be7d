import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { webhookEvents } from '../contracts.js';
import { webhooksPlugin } from '../plugin.js';
import { startReceiver, type Receiver } from '../testing/receiver.js';

describe('hook deliveries, history, resend and test', () => {
  let app: TestApp;
  let receiver: Receiver;
  let hooks: string;
  let counter = 0;

  const allowLocal = (allowed: boolean) =>
    app.put('/api/v4/application/settings', { allow_local_requests_from_web_hooks_and_services: allowed }, { token: 'admin' });
  const commit = async (branch = 'main') => {
    counter += 1;
    const res = await app.post(
      `/api/v4/projects/${app.project.id}/repository/commits`,
      { branch, start_branch: 'main', commit_message: `Change ${counter}`, actions: [{ action: 'create', file_path: `file-${counter}.txt`, content: 'x\n' }] },
      { token: 'maintainer' },
    );
    expect(res.status).toBe(201);
    return res.body;
  };
  const history = (hookId: number, query: Record<string, string> = {}) => app.get(`${hooks}/${hookId}/events`, { token: 'owner', query });
  /** The history entry the predicate accepts, once the delivery is recorded. */
  const recorded = (hookId: number, predicate: (event: any) => boolean) =>
    vi.waitFor(
      async () => {
        const found = (await history(hookId)).body.find(predicate);
        if (!found) throw new Error('not recorded yet');
        return found;
      },
      { timeout: 10_000, interval: 25 },
    );

  beforeAll(async () => {
    app = await createTestApp({ plugins: [repositoriesPlugin, webhooksPlugin] });
    receiver = await startReceiver();
    hooks = `/api/v4/groups/${app.group.id}/hooks`;
    await app.post(
      `/api/v4/projects/${app.project.id}/repository/commits`,
      { branch: 'main', commit_message: 'Initial', actions: [{ action: 'create', file_path: 'README.md', content: 'hi\n' }] },
      { token: 'maintainer' },
    );
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });
  beforeEach(async () => {
    await allowLocal(true);
    receiver.answerWith(200);
  });

  it('refuses a local target until the administrator allows local requests', async () => {
    await allowLocal(false);
    const refused = await app.post(hooks, { url: receiver.url() }, { token: 'owner' });
    expect([refused.status, refused.body]).toEqual([422, { message: 'Invalid url given' }]);
    const byName = await app.post(hooks, { url: `http://localhost:${receiver.port}/hook` }, { token: 'owner' });
    expect(byName.status).toBe(422);
    const allowlisted = await app.put('/api/v4/application/settings', { outbound_local_requests_whitelist: ['127.0.0.0/8', 'localhost'] }, { token: 'admin' });
    expect(allowlisted.status).toBe(200);
    const created = await app.post(hooks, { url: receiver.url('/allowlisted') }, { token: 'owner' });
    expect(created.status).toBe(201);
    await app.put('/api/v4/application/settings', { outbound_local_requests_whitelist: [] }, { token: 'admin' });
    await app.delete(`${hooks}/${created.body.id}`, { token: 'owner' });
    await allowLocal(true);
    expect((await app.post(hooks, { url: `http://localhost:${receiver.port}/local` }, { token: 'owner' })).status).toBe(201);
    await app.delete(`${hooks}/${(await app.get(hooks, { token: 'owner' })).body[0].id}`, { token: 'owner' });
  });

  it('delivers a push with both header families and records it redacted', async () => {
    const hook = await app.post(
      hooks,
      { url: receiver.url('/push'), token: 'the-secret', custom_headers: [{ key: 'X-Extra', value: 'extra-secret' }] },
      { token: 'owner' },
    );
    const pushed = await commit();
    const request = await receiver.waitFor((r) => r.path === '/push' && r.body?.after === pushed.id);
    expect(request.headers).toMatchObject({
      'content-type': 'application/json',
      'x-service-event': 'Push Hook',
      'x-gitlab-event': 'Push Hook',
      'x-service-token': 'the-secret',
      'x-gitlab-token': 'the-secret',
      'x-service-instance': 'http://localhost',
      'x-gitlab-instance': 'http://localhost',
      'x-extra': 'extra-secret',
    });
    expect(request.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(request.headers['x-service-webhook-uuid']).toMatch(/^[0-9a-f-]{36}$/);
    expect(request.headers['x-service-event-uuid']).toMatch(/^[0-9a-f-]{36}$/);
    expect(request.body).toMatchObject({ object_kind: 'push', ref: 'refs/heads/main', after: pushed.id, total_commits_count: 1, project_id: app.project.id });
    expect(request.body).not.toHaveProperty('projectId');

    const event = await recorded(hook.body.id, (e) => e.request_data.after === pushed.id);
    expect(event).toMatchObject({
      url: receiver.url('/push'),
      trigger: 'push_hooks',
      response_status: '200',
      response_body: 'ok',
      response_headers: { 'x-receiver': 'yes' },
      request_data: { object_kind: 'push', user_email: '[REDACTED]' },
    });
    expect(event.request_headers).toMatchObject({
      'X-Service-Token': '[REDACTED]',
      'X-Gitlab-Token': '[REDACTED]',
      'X-Extra': '[REDACTED]',
      'X-Service-Event': 'Push Hook',
    });
    expect(typeof event.execution_duration).toBe('number');
    await app.delete(`${hooks}/${hook.body.id}`, { token: 'owner' });
  });

  it('filters pushes by branch', async () => {
    const hook = await app.post(hooks, { url: receiver.url('/filtered'), push_events_branch_filter: 'release-*' }, { token: 'owner' });
    // The filter decides when the push is published, so both are decided once the events are emitted.
    for (const branch of ['feature', 'release-1'])
      await app.kernel.events.emit(webhookEvents.requested, {
        trigger: 'push_events',
        projectId: app.project.id,
        groupId: null,
        branch,
        payload: { object_kind: 'push', ref: `refs/heads/${branch}` },
      });
    await recorded(hook.body.id, (e) => e.request_data.ref === 'refs/heads/release-1');
    const events = await history(hook.body.id);
    expect(events.body.map((e: any) => e.request_data.ref)).toEqual(['refs/heads/release-1']);
    await app.delete(`${hooks}/${hook.body.id}`, { token: 'owner' });
  });

  it('takes hook requests any plugin publishes through the contract, for project hooks too', async () => {
    const projectHooks = `/api/v4/projects/${app.project.id}/hooks`;
    const hook = await app.post(projectHooks, { url: receiver.url('/project'), push_events: false, emoji_events: true }, { token: 'maintainer' });
    expect(hook.status).toBe(201);
    expect(hook.body.project_id).toBe(app.project.id);
    await app.kernel.events.emit(webhookEvents.requested, {
      trigger: 'emoji_events',
      projectId: app.project.id,
      groupId: null,
      payload: { object_kind: 'emoji', note: 'hi' },
    });
    const request = await receiver.waitFor((r) => r.path === '/project');
    expect([request.path, request.headers['x-service-event'], request.body]).toEqual(['/project', 'Emoji Hook', { object_kind: 'emoji', note: 'hi' }]);
    const logged = await vi.waitFor(async () => {
      const [first] = (await app.get(`${projectHooks}/${hook.body.id}/events`, { token: 'maintainer' })).body;
      if (!first) throw new Error('not recorded yet');
      return first;
    });
    expect(logged.trigger).toBe('emoji_hooks');
    expect((await app.get(projectHooks, { token: 'developer' })).status).toBe(403);
    await app.delete(`${projectHooks}/${hook.body.id}`, { token: 'maintainer' });
  });

  it('resends an event with its Idempotency-Key, answers the receiver’s status, and limits resends', async () => {
    const hook = await app.post(hooks, { url: receiver.url('/resend') }, { token: 'owner' });
    const pushed = await commit();
    const original = await receiver.waitFor((r) => r.path === '/resend' && r.body?.after === pushed.id);
    const event = await recorded(hook.body.id, (e) => e.request_data.after === pushed.id);

    receiver.answerWith(500, 'Error response');
    const before = receiver.received.length;
    const resent = await app.post(`${hooks}/${hook.body.id}/events/${event.id}/resend`, {}, { token: 'owner' });
    expect([resent.status, resent.body]).toEqual([201, { response_status: 500 }]);
    const again = receiver.received[before]!;
    expect(again.headers['idempotency-key']).toBe(original.headers['idempotency-key']);

    expect((await history(hook.body.id, { status: 'server_failure' })).body.map((e: any) => e.response_status)).toEqual(['500']);
    expect((await history(hook.body.id, { status: 'successful' })).body.map((e: any) => e.response_status)).toEqual(['200']);
    expect((await history(hook.body.id, { status: '200,500' })).body).toHaveLength(2);
    expect((await history(hook.body.id, { status: 'nonsense' })).body).toEqual({ error: 'status does not have a valid value' });
    expect((await history(hook.body.id, { per_page: '21' })).body).toEqual({ error: 'per_page does not have a valid value' });
    expect((await app.post(`${hooks}/${hook.body.id}/events/999999/resend`, {}, { token: 'owner' })).body).toEqual({ message: '404 Not found' });

    const statuses = [];
    for (let attempt = 0; attempt < 4; attempt++)
      statuses.push((await app.post(`${hooks}/${hook.body.id}/events/${event.id}/resend`, {}, { token: 'owner' })).status);
    // The first resend and the 404 counted too: five in the minute, then the limit.
    expect(statuses).toEqual([201, 201, 201, 429]);
    const limited = await app.post(`${hooks}/${hook.body.id}/events/${event.id}/resend`, {}, { token: 'owner' });
    expect(limited.body).toEqual({ message: { error: 'This endpoint has been requested too many times. Try again later.' } });

    await app.put('/api/v4/application/settings', { web_hook_event_resend_api_endpoint_rate_limit: false }, { token: 'admin' });
    expect((await app.post(`${hooks}/${hook.body.id}/events/${event.id}/resend`, {}, { token: 'owner' })).status).toBe(201);

    await app.put(`${hooks}/${hook.body.id}`, { url: receiver.url('/moved') }, { token: 'owner' });
    const moved = await app.post(`${hooks}/${hook.body.id}/events/${event.id}/resend`, {}, { token: 'owner' });
    expect([moved.status, moved.body]).toEqual([422, { message: 'The hook URL has changed, and this log entry cannot be retried' }]);
    await app.delete(`${hooks}/${hook.body.id}`, { token: 'owner' });
  });

  it('re-checks the target at delivery time', async () => {
    const hook = await app.post(hooks, { url: receiver.url('/recheck') }, { token: 'owner' });
    await allowLocal(false);
    await app.kernel.jobs.run('webhooks:deliver', {
      hookId: hook.body.id,
      trigger: 'push_events',
      payload: { object_kind: 'push' },
      idempotencyKey: crypto.randomUUID(),
      eventUuid: crypto.randomUUID(),
    });
    const [event] = (await history(hook.body.id)).body;
    expect([event.response_status, event.response_body]).toEqual(['internal error', '']);
    expect((await history(hook.body.id, { status: 'server_failure' })).body).toHaveLength(1);
    await app.delete(`${hooks}/${hook.body.id}`, { token: 'owner' });
  });

  it('tests a hook with a sample push and answers the receiver’s failure as 422', async () => {
    const hook = await app.post(hooks, { url: receiver.url('/test') }, { token: 'owner' });
    const ok = await app.post(`${hooks}/${hook.body.id}/test/push_events`, {}, { token: 'owner' });
    expect([ok.status, ok.body]).toEqual([201, { message: '201 Created' }]);
    const sample = receiver.received[receiver.received.length - 1]!;
    expect(sample.body).toMatchObject({ object_kind: 'push', ref: 'refs/heads/main', user_username: 'owner' });
    expect(sample.body.commits.length).toBeGreaterThan(0);

    receiver.answerWith(400, 'Error response');
    const failed = await app.post(`${hooks}/${hook.body.id}/test/push_events`, {}, { token: 'owner' });
    expect([failed.status, failed.body]).toEqual([422, { message: 'Error response' }]);
    const untestable = await app.post(`${hooks}/${hook.body.id}/test/deployment_events`, {}, { token: 'owner' });
    expect([untestable.status, untestable.body]).toEqual([422, { message: 'Testing not available for this hook' }]);
    const bad = await app.post(`${hooks}/${hook.body.id}/test/nope`, {}, { token: 'owner' });
    expect([bad.status, bad.body]).toEqual([400, { error: 'trigger does not have a valid value' }]);

    const empty = await app.post('/api/v4/groups', { name: 'Empty', path: 'empty-hooks' }, { token: 'admin' });
    const emptyHook = await app.post(`/api/v4/groups/${empty.body.id}/hooks`, { url: receiver.url('/empty') }, { token: 'admin' });
    const none = await app.post(`/api/v4/groups/${empty.body.id}/hooks/${emptyHook.body.id}/test/push_events`, {}, { token: 'admin' });
    expect([none.status, none.body]).toEqual([422, { message: 'Ensure the group has a project with commits.' }]);
  });

  it('disables a failing hook when auto-disabling is on, and a passing test brings it back', async () => {
    await app.put('/api/v4/application/settings', { auto_disabling_web_hooks: true }, { token: 'admin' });
    const hook = await app.post(hooks, { url: receiver.url('/failing') }, { token: 'owner' });
    receiver.answerWith(500);
    const deliver = () =>
      app.kernel.jobs.run('webhooks:deliver', {
        hookId: hook.body.id,
        trigger: 'push_events',
        payload: { object_kind: 'push' },
        idempotencyKey: crypto.randomUUID(),
        eventUuid: crypto.randomUUID(),
      });
    for (let failure = 0; failure < 3; failure++) await deliver();
    expect((await app.get(`${hooks}/${hook.body.id}`, { token: 'owner' })).body).toMatchObject({ alert_status: 'executable', disabled_until: null });
    await deliver();
    const disabled = (await app.get(`${hooks}/${hook.body.id}`, { token: 'owner' })).body;
    expect(disabled.alert_status).toBe('temporarily_disabled');
    expect(Date.parse(disabled.disabled_until) - Date.now()).toBeGreaterThan(0);
    const [event] = (await history(hook.body.id)).body;
    const refused = await app.post(`${hooks}/${hook.body.id}/events/${event.id}/resend`, {}, { token: 'owner' });
    expect([refused.status, refused.body]).toEqual([422, { message: 'Hook disabled' }]);

    receiver.answerWith(200);
    expect((await app.post(`${hooks}/${hook.body.id}/test/push_events`, {}, { token: 'owner' })).status).toBe(201);
    expect((await app.get(`${hooks}/${hook.body.id}`, { token: 'owner' })).body).toMatchObject({ alert_status: 'executable', disabled_until: null });
    await app.put('/api/v4/application/settings', { auto_disabling_web_hooks: false }, { token: 'admin' });
  });
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { clientFor, failureOf, type Api } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';
import { gitCli } from './support/git-cli.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

/**
 * Group webhooks end to end: a receiver on 127.0.0.1 refused until the administrator allows
 * local requests, a `git push` delivered with both header families, the delivery in the
 * history with its token redacted, a resend with the same Idempotency-Key, and a receiver
 * that never answers delaying no API request.
 */
describe('webhooks through @gitbeaker/rest, git and the API', () => {
  let server: ListeningServer;
  let admin: Api;
  let work: string;
  let receiver: Server;
  let receiverUrl: string;
  const received: Received[] = [];
  let group: { id: number };
  let project: { id: number; http_url_to_repo: string };

  const git = (cwd: string, ...args: string[]) => gitCli(work).ok(cwd, ...args);
  const api = (method: string, path: string) =>
    fetch(`${server.url}/api/v4${path}`, { method, headers: { 'PRIVATE-TOKEN': server.rootToken } }).then(async (res) => ({
      status: res.status,
      body: (await res.json()) as any,
    }));
  const arrived = (predicate: (request: Received) => boolean) =>
    vi.waitFor(
      () => {
        const found = received.find(predicate);
        if (!found) throw new Error('not delivered yet');
        return found;
      },
      { timeout: 15_000, interval: 25 },
    );

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ path: req.url ?? '/', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') });
        // The hanging receiver never answers.
        if (req.url === '/hang') return;
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.end('received');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    server = await startListeningServer();
    admin = clientFor(server, server.rootToken);
    work = await mkdtemp(join(tmpdir(), 'forgekit-hooks-blackbox-'));
    group = await admin.Groups.create('Hooked', 'hooked');
    project = (await admin.Projects.create({ name: 'App', path: 'app', namespaceId: group.id, initializeWithReadme: true })) as unknown as typeof project;
  });
  afterAll(async () => {
    await server?.close();
    receiver?.closeAllConnections();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('refuses a receiver on the local network until the administrator allows local requests', async () => {
    expect(await failureOf(admin.GroupHooks.add(group.id, `${receiverUrl}/push`, { pushEvents: true }))).toEqual({
      status: 422,
      description: 'Invalid url given',
    });
    await admin.ApplicationSettings.edit({ allowLocalRequestsFromWebHooksAndServices: true });
    const hook = await admin.GroupHooks.add(group.id, `${receiverUrl}/push`, { pushEvents: true, token: 'hook-secret' } as never);
    expect(hook).toMatchObject({ url: `${receiverUrl}/push`, group_id: group.id, push_events: true, alert_status: 'executable' });
    expect(hook).not.toHaveProperty('token');
    expect((await admin.GroupHooks.all(group.id)).map((h) => h.id)).toEqual([hook.id]);
  });

  it('delivers a git push with both header families, records it redacted and resends it with the same Idempotency-Key', async () => {
    const dir = join(work, 'app');
    await git(work, 'clone', '--quiet', project.http_url_to_repo.replace('://', `://root:${server.rootToken}@`), dir);
    await writeFile(join(dir, 'pushed.md'), 'from git\n');
    await git(dir, 'add', 'pushed.md');
    await git(dir, 'commit', '--quiet', '-m', 'Pushed with git');
    await git(dir, 'push', '--quiet', 'origin', 'main');
    const sha = await git(dir, 'rev-parse', 'HEAD');

    const push = await arrived((request) => request.path === '/push' && request.body?.after === sha);
    expect(push.headers).toMatchObject({
      'x-service-event': 'Push Hook',
      'x-gitlab-event': 'Push Hook',
      'x-service-token': 'hook-secret',
      'x-gitlab-token': 'hook-secret',
    });
    expect(push.headers['x-service-instance']).toBe(server.url);
    expect(push.body).toMatchObject({ object_kind: 'push', ref: 'refs/heads/main', commits: [{ id: sha, title: 'Pushed with git', added: ['pushed.md'] }] });

    const [hook] = await admin.GroupHooks.all(group.id);
    // The delivery is recorded once the receiver has answered.
    const event = await vi.waitFor(
      async () => {
        const events = await api('GET', `/groups/${group.id}/hooks/${hook!.id}/events`);
        const found = events.status === 200 && events.body.find((e: any) => e.request_data.after === sha);
        if (!found) throw new Error('not recorded yet');
        return found;
      },
      { timeout: 15_000, interval: 25 },
    );
    expect(event).toMatchObject({ trigger: 'push_hooks', response_status: '200', response_body: 'received' });
    expect(event.request_headers['X-Service-Token']).toBe('[REDACTED]');
    expect(event.request_data.user_email).toBe('[REDACTED]');

    const count = received.length;
    const resent = await api('POST', `/groups/${group.id}/hooks/${hook!.id}/events/${event.id}/resend`);
    expect(resent).toEqual({ status: 201, body: { response_status: 200 } });
    expect(received.length).toBe(count + 1);
    expect(received[count]!.headers['idempotency-key']).toBe(push.headers['idempotency-key']);
  });

  it('answers API requests while a receiver hangs', async () => {
    const hanging = await admin.ProjectHooks.add(project.id, `${receiverUrl}/hang`, { pushEvents: true });
    const commit = await admin.Commits.create(project.id, 'main', 'While the receiver hangs', [{ action: 'create', filePath: 'hang.md', content: 'x\n' }]);
    expect(commit.title).toBe('While the receiver hangs');
    const stuck = await arrived((request) => request.path === '/hang' && request.body?.after === commit.id);
    expect(stuck.body.object_kind).toBe('push');
    // The receiver has not answered, yet the API still serves requests.
    expect((await admin.ProjectHooks.show(project.id, hanging.id)).url).toBe(`${receiverUrl}/hang`);
    await admin.ProjectHooks.remove(project.id, hanging.id);
  });

  it('delivers a merge request opened through gitbeaker as a Merge Request Hook', async () => {
    const hook = await admin.ProjectHooks.add(project.id, `${receiverUrl}/merge-requests`, { pushEvents: false, mergeRequestsEvents: true });
    expect(hook).toMatchObject({ merge_requests_events: true, push_events: false });
    await admin.Branches.create(project.id, 'topic', 'main');
    await admin.Commits.create(project.id, 'topic', 'Topic work', [{ action: 'create', filePath: 'topic.md', content: 'topic\n' }]);
    const mr = await admin.MergeRequests.create(project.id, 'topic', 'main', 'Topic work');
    const delivered = await arrived((request) => request.path === '/merge-requests' && request.body?.object_attributes?.id === mr.id);
    expect(delivered.headers).toMatchObject({ 'x-service-event': 'Merge Request Hook', 'x-gitlab-event': 'Merge Request Hook' });
    expect(delivered.body).toMatchObject({
      object_kind: 'merge_request',
      event_type: 'merge_request',
      project: { id: project.id, path_with_namespace: 'hooked/app' },
      object_attributes: { iid: mr.iid, title: 'Topic work', state: 'opened', source_branch: 'topic', target_branch: 'main', action: 'open' },
    });
    // The hook asked for no push events: the commit to topic was not delivered to it.
    expect(received.some((request) => request.path === '/merge-requests' && request.body?.object_kind === 'push')).toBe(false);
    await admin.ProjectHooks.remove(project.id, hook.id);
  });

  it('edits and removes a hook through gitbeaker', async () => {
    const [hook] = await admin.GroupHooks.all(group.id);
    const edited = await admin.GroupHooks.edit(group.id, hook!.id, `${receiverUrl}/moved`, { issuesEvents: true });
    expect(edited).toMatchObject({ url: `${receiverUrl}/moved`, issues_events: true, push_events: true });
    await admin.GroupHooks.remove(group.id, hook!.id);
    expect(await failureOf(admin.GroupHooks.show(group.id, hook!.id))).toEqual({ status: 404, description: '404 Not found' });
  });
});

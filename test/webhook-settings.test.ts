import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, type Api } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';

/** A project's and a group's webhooks: edits, custom headers and URL variables, test deliveries, their history and a resend. */
describe('webhook settings and test deliveries', () => {
  let server: ListeningServer;
  let admin: Api;
  let receiver: Server;
  let receiverUrl: string;
  const received: { path: string; headers: IncomingHttpHeaders }[] = [];
  const owners: Record<'project' | 'group', string> = {} as never;
  const call = async (method: string, path: string, body?: Record<string, unknown>) => {
    const res = await fetch(`${server.url}/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': server.rootToken, 'Content-Type': 'application/json' },
      body: body && JSON.stringify(body),
    });
    return { status: res.status, body: res.status === 204 ? null : ((await res.json()) as any) };
  };

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      received.push({ path: req.url ?? '/', headers: req.headers });
      req.resume();
      req.on('end', () => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok'));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    server = await startListeningServer();
    admin = clientFor(server, server.rootToken);
    await admin.ApplicationSettings.edit({ allowLocalRequestsFromWebHooksAndServices: true });
    const group = (await admin.Groups.create('Hooked', 'hooked')) as unknown as { id: number };
    const project = (await admin.Projects.create({ name: 'App', namespaceId: group.id, initializeWithReadme: true })) as unknown as { id: number };
    Object.assign(owners, { project: `/projects/${project.id}`, group: `/groups/${group.id}` });
  });
  afterAll(async () => {
    await server?.close();
    receiver?.closeAllConnections();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  });

  for (const owner of ['project', 'group'] as const) {
    describe(`${owner} hooks`, () => {
      let hookId: number;
      const hooks = () => `${owners[owner]}/hooks`;

      it('adds a hook, edits it and lists it', async () => {
        const added = await call('POST', hooks(), { url: `${receiverUrl}/${owner}`, push_events: true });
        expect(added.status).toBe(201);
        hookId = added.body.id;
        const edited = await call('PUT', `${hooks()}/${hookId}`, { url: `${receiverUrl}/${owner}`, issues_events: true, push_events: false });
        expect(edited.body).toMatchObject({ id: hookId, issues_events: true, push_events: false });
        expect((await call('GET', hooks())).body.map((hook: { id: number }) => hook.id)).toEqual([hookId]);
      });

      it('sends a custom header with a test delivery, and drops it once removed', async () => {
        expect((await call('PUT', `${hooks()}/${hookId}/custom_headers/X-Team`, { value: 'platform' })).status).toBe(204);
        const tested = await call('POST', `${hooks()}/${hookId}/test/push_events`);
        expect(tested).toEqual({ status: 201, body: { message: '201 Created' } });
        expect(received.at(-1)).toMatchObject({ path: `/${owner}`, headers: { 'x-team': 'platform', 'x-gitlab-event': 'Push Hook' } });

        expect((await call('DELETE', `${hooks()}/${hookId}/custom_headers/X-Team`)).status).toBe(204);
        await call('POST', `${hooks()}/${hookId}/test/push_events`);
        expect(received.at(-1)!.headers).not.toHaveProperty('x-team');
        expect((await call('POST', `${hooks()}/${hookId}/test/nothing_events`)).status).toBe(400);
      });

      it('sets and removes a URL variable, refusing an invalid one', async () => {
        expect((await call('PUT', `${hooks()}/${hookId}/url_variables/branch`, { value: 'main' })).status).toBe(204);
        expect((await call('DELETE', `${hooks()}/${hookId}/url_variables/branch`)).status).toBe(204);
        const tooLong = await call('PUT', `${hooks()}/${hookId}/url_variables/branch`, { value: 'x'.repeat(101) });
        expect(tooLong).toEqual({ status: 422, body: { message: 'Illegal key or value' } });
      });

      it('keeps the test deliveries in the history and resends one', async () => {
        const history = await call('GET', `${hooks()}/${hookId}/events`);
        expect(history.status).toBe(200);
        expect(history.body.length).toBeGreaterThanOrEqual(2);
        expect(history.body[0]).toMatchObject({ url: `${receiverUrl}/${owner}`, trigger: 'push_hooks', response_status: '200' });
        const before = received.length;
        const resent = await call('POST', `${hooks()}/${hookId}/events/${history.body[0].id}/resend`);
        expect(resent).toEqual({ status: 201, body: { response_status: 200 } });
        expect(received.length).toBe(before + 1);
      });
    });
  }
});

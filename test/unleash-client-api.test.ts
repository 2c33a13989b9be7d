import { featureFlagsClientRef } from '@forgekit/plugin-feature-flags';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, type Api } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';

/** The Unleash client API as SDKs other than Node's call it: the instance id as header or parameter, register and metrics. */
describe('the Unleash client API with plain requests', () => {
  let server: ListeningServer;
  let admin: Api;
  let projectId: number;
  let instanceId: string;
  const unleash = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const res = await fetch(`${server.url}/api/v4/feature_flags/unleash/${projectId}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    server = await startListeningServer();
    admin = clientFor(server, server.rootToken);
    projectId = ((await admin.Projects.create({ name: 'Flagged' })) as unknown as { id: number }).id;
    await admin.FeatureFlags.create(projectId, 'dark_mode', 'new_version_flag', {
      strategies: [{ name: 'default', parameters: '{}', scopes: [{ environmentScope: '*' }] }],
    } as never);
    instanceId = await server.kernel.resolve(featureFlagsClientRef).tokenFor(projectId);
  });
  afterAll(() => server?.close());

  it('serves the features with the instance id as a header or a parameter', async () => {
    const byHeader = await unleash('GET', '/features', { 'UNLEASH-INSTANCEID': instanceId, 'UNLEASH-APPNAME': 'production' });
    expect(byHeader.status).toBe(200);
    expect(byHeader.body).toMatchObject({ version: 1, features: [{ name: 'dark_mode', enabled: true, strategies: [{ name: 'default' }] }] });
    const byParameter = await unleash('GET', `/features?instance_id=${instanceId}&app_name=production`, {});
    expect(byParameter.body).toEqual(byHeader.body);
  });

  it('accepts registration, metrics and the bare project URL, as GitLab does', async () => {
    const headers = { 'UNLEASH-INSTANCEID': instanceId };
    expect(await unleash('POST', '/client/register', headers, { appName: 'production', instanceId: 'pod-1', strategies: ['default'] })).toEqual({
      status: 200,
      body: 200,
    });
    expect(await unleash('POST', '/client/metrics', headers, { appName: 'production', bucket: { toggles: {} } })).toEqual({ status: 200, body: 200 });
    expect(await unleash('GET', '', headers)).toEqual({ status: 200, body: 200 });
  });

  it('refuses a missing or wrong instance id with 401', async () => {
    expect((await unleash('GET', '/features', {})).status).toBe(401);
    expect((await unleash('POST', '/client/register', { 'UNLEASH-INSTANCEID': 'wrong' }, {})).status).toBe(401);
    expect((await unleash('POST', '/client/metrics', { 'UNLEASH-INSTANCEID': 'wrong' }, {})).status).toBe(401);
  });
});

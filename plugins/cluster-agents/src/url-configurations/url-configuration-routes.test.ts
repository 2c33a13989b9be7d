import { createPublicKey, createPrivateKey } from 'node:crypto';
import { kernelServices } from '@forgekit/kernel';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterAgentUrlConfigurationEntity } from '../entities/cluster-agent-url-configuration.js';
import { agentsPath, modelErrors, registerAgent, startApp } from '../testing/agent-fixtures.js';
import { TEST_CERT_PEM, TEST_KEY_PEM } from '../testing/pem-fixtures.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const configurationsWhere = (app: TestApp, where: { id: number } | { agentId: number }) =>
  app.kernel.database.rows(app.kernel.database.from(ClusterAgentUrlConfigurationEntity).where(where));
/** The public half of a raw Ed25519 private seed, raw too. */
const ed25519PublicOf = (seed: Buffer) =>
  createPublicKey(createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]), format: 'der', type: 'pkcs8' }))
    .export({ format: 'der', type: 'spki' })
    .subarray(-32);

describe('agent URL configurations', () => {
  let app: TestApp;
  const configsPath = (agentId: number) => `${agentsPath(app)}/${agentId}/url_configurations`;
  const setReceptive = async (enabled: boolean) => {
    const res = await app.put('/api/v4/application/settings', { receptive_cluster_agents_enabled: enabled }, { token: 'admin' });
    expect(res.body.receptive_cluster_agents_enabled).toBe(enabled);
  };
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(() => app?.close());

  describe('while receptive agents are disabled (the default)', () => {
    it('answers 404 Not Found before validating anything', async () => {
      const agentId = await registerAgent(app, 'disabled');
      for (const res of [
        await app.get(configsPath(agentId), { token: 'maintainer' }),
        await app.get(`${configsPath(agentId)}/1`, { token: 'maintainer' }),
        await app.post(configsPath(agentId), {}, { token: 'maintainer' }),
        await app.delete(`${configsPath(agentId)}/1`, { token: 'maintainer' }),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: '404 Not Found' });
      }
    });

    it('still needs authentication first', async () => {
      const res = await app.get(configsPath(1));
      expect(res.status).toBe(401);
    });
  });

  describe('while receptive agents are enabled', () => {
    beforeAll(() => setReceptive(true));

    it('creates a configuration with a generated key pair and stores the private key sealed', async () => {
      const agentId = await registerAgent(app, 'key-pair');
      const res = await app.post(configsPath(agentId), { url: ' grpcs://agent.example.com:4242 ' }, { token: 'maintainer' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        agent_id: agentId,
        url: 'grpcs://agent.example.com:4242',
        public_key: expect.stringMatching(/^[A-Za-z0-9+/]{43}=$/),
        client_cert: null,
        ca_cert: null,
        tls_host: null,
      });
      expect(Buffer.from(res.body.public_key, 'base64')).toHaveLength(32);
      const [row] = await configurationsWhere(app, { id: res.body.id });
      const privateKey = app.kernel.resolve(kernelServices.secrets).open(row!.privateKey!);
      expect(ed25519PublicOf(privateKey).toString('base64')).toBe(res.body.public_key);
      for (const form of ['base64', 'base64url', 'hex', 'latin1'] as const) expect(row!.privateKey).not.toContain(privateKey.toString(form));
      const agent = await app.get(`${agentsPath(app)}/${agentId}`, { token: 'developer' });
      expect(agent.body.is_receptive).toBe(true);
    });

    it('creates a configuration with a client certificate and key, never returning the key', async () => {
      const agentId = await registerAgent(app, 'mtls');
      const res = await app.post(
        configsPath(agentId),
        {
          url: 'grpcs://agent.example.com',
          client_cert: b64(TEST_CERT_PEM),
          client_key: b64(TEST_KEY_PEM),
          ca_cert: b64(TEST_CERT_PEM),
          tls_host: 'agent.example.com',
        },
        { token: 'maintainer' },
      );
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        agent_id: agentId,
        url: 'grpcs://agent.example.com',
        public_key: null,
        client_cert: b64(TEST_CERT_PEM),
        ca_cert: b64(TEST_CERT_PEM),
        tls_host: 'agent.example.com',
      });
      expect(res.text).not.toContain(b64(TEST_KEY_PEM));
      const [row] = await configurationsWhere(app, { id: res.body.id });
      expect(row!.clientKey).not.toContain('PRIVATE KEY');
      expect(row!.clientKey).not.toContain(b64(TEST_KEY_PEM).slice(0, 40));
      expect(app.kernel.resolve(kernelServices.secrets).open(row!.clientKey!).toString()).toBe(TEST_KEY_PEM);
      expect(row!.privateKey).toBeNull();
    });

    it('ignores a client certificate sent without a client key', async () => {
      const agentId = await registerAgent(app, 'cert-only');
      const res = await app.post(configsPath(agentId), { url: 'grpc://agent.example.com', client_cert: b64(TEST_CERT_PEM) }, { token: 'maintainer' });
      expect(res.status).toBe(201);
      expect(res.body.client_cert).toBeNull();
      expect(res.body.public_key).not.toBeNull();
    });

    it('requires a url', async () => {
      const agentId = await registerAgent(app, 'no-url');
      const res = await app.post(configsPath(agentId), {}, { token: 'maintainer' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'url is missing' });
    });

    it('reports every invalid field with GitLab texts', async () => {
      const agentId = await registerAgent(app, 'invalid');
      const res = await app.post(
        configsPath(agentId),
        { url: 'https://agent.example.com', ca_cert: b64('not a certificate'), tls_host: 'agent.example.com:443', client_key: b64('not a key') },
        { token: 'maintainer' },
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        modelErrors(
          'Url is blocked: Only allowed schemes are grpc, grpcs',
          'Ca cert must be a valid PEM certificate',
          'Tls host must be a valid hostname!',
          'Client cert must be a valid PEM certificate',
          'Client key must be a valid PEM private key',
        ),
      );
      const blank = await app.post(configsPath(agentId), { url: '  ' }, { token: 'maintainer' });
      expect(blank.body).toEqual({ message: '400 Bad request - ["Url must be a valid URL"]' });
      expect((await app.get(configsPath(agentId), { token: 'maintainer' })).body).toEqual([]);
    });

    it('allows one configuration per agent', async () => {
      const agentId = await registerAgent(app, 'only-one');
      expect((await app.post(configsPath(agentId), { url: 'grpc://one.example.com' }, { token: 'maintainer' })).status).toBe(201);
      const res = await app.post(configsPath(agentId), { url: 'grpc://two.example.com' }, { token: 'maintainer' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: '400 Bad request - URL configuration already exists for this agent' });
    });

    it('lists and shows the configuration to maintainers', async () => {
      const agentId = await registerAgent(app, 'listed-config');
      expect((await app.get(configsPath(agentId), { token: 'maintainer' })).body).toEqual([]);
      const created = (await app.post(configsPath(agentId), { url: 'grpc://listed.example.com' }, { token: 'maintainer' })).body;
      const list = await app.get(configsPath(agentId), { token: 'maintainer' });
      expect(list.status).toBe(200);
      expect(list.body).toEqual([created]);
      expect(list.headers.get('x-total')).toBeNull();
      const shown = await app.get(`${configsPath(agentId)}/${created.id}`, { token: 'maintainer' });
      expect(shown.status).toBe(200);
      expect(shown.body).toEqual(created);
      const other = await app.get(`${configsPath(agentId)}/${created.id + 1000}`, { token: 'maintainer' });
      expect(other.status).toBe(404);
      expect(other.body).toEqual({ message: '404 Not Found' });
    });

    it('lists and shows the configuration to developers', async () => {
      const agentId = await registerAgent(app, 'read-by-developers');
      const created = (await app.post(configsPath(agentId), { url: 'grpc://dev.example.com' }, { token: 'maintainer' })).body;
      const list = await app.get(configsPath(agentId), { token: 'developer' });
      expect(list.status).toBe(200);
      expect(list.body).toEqual([created]);
      const shown = await app.get(`${configsPath(agentId)}/${created.id}`, { token: 'developer' });
      expect(shown.status).toBe(200);
      expect(shown.body).toEqual(created);
    });

    it('refuses reading below Developer, and writing below Maintainer, and hides missing agents', async () => {
      const agentId = await registerAgent(app, 'maintainers-write');
      const created = (await app.post(configsPath(agentId), { url: 'grpc://kept.example.com' }, { token: 'maintainer' })).body;
      for (const res of [
        await app.get(configsPath(agentId), { token: 'reporter' }),
        await app.get(`${configsPath(agentId)}/${created.id}`, { token: 'reporter' }),
        await app.post(configsPath(agentId), { url: 'grpc://x.example.com' }, { token: 'developer' }),
        await app.delete(`${configsPath(agentId)}/${created.id}`, { token: 'developer' }),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ message: '403 Forbidden' });
      }
      expect((await app.get(configsPath(agentId), { token: 'maintainer' })).body).toEqual([created]);
      const missing = await app.get(configsPath(999999), { token: 'developer' });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 Not found' });
      const stranger = await app.get(configsPath(agentId), { token: 'nonMember' });
      expect(stranger.body).toEqual({ message: '404 Project Not Found' });
    });

    it('deletes the configuration, making the agent non-receptive again', async () => {
      const agentId = await registerAgent(app, 'deleted-config');
      const created = (await app.post(configsPath(agentId), { url: 'grpc://gone.example.com' }, { token: 'maintainer' })).body;
      const before = new Date(Date.now() - 3_600_000).toUTCString();
      const stale = await app.delete(`${configsPath(agentId)}/${created.id}`, { token: 'maintainer', headers: { 'If-Unmodified-Since': before } });
      expect(stale.status).toBe(412);
      expect(stale.body).toEqual({ message: '412 Precondition Failed' });
      const res = await app.delete(`${configsPath(agentId)}/${created.id}`, { token: 'maintainer' });
      expect(res.status).toBe(204);
      expect((await app.get(`${agentsPath(app)}/${agentId}`, { token: 'developer' })).body.is_receptive).toBe(false);
      const again = await app.delete(`${configsPath(agentId)}/${created.id}`, { token: 'maintainer' });
      expect(again.status).toBe(404);
      expect(again.body).toEqual({ message: '404 Not Found' });
      expect((await app.post(configsPath(agentId), { url: 'grpc://back.example.com' }, { token: 'maintainer' })).status).toBe(201);
    });

    it('goes away with its agent', async () => {
      const agentId = await registerAgent(app, 'cascade');
      await app.post(configsPath(agentId), { url: 'grpc://cascade.example.com' }, { token: 'maintainer' });
      expect((await app.delete(`${agentsPath(app)}/${agentId}`, { token: 'maintainer' })).status).toBe(204);
      expect(await configurationsWhere(app, { agentId })).toEqual([]);
    });
  });
});

import type { TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentsPath, modelErrors, registerAgent, startApp } from '../testing/agent-fixtures.js';
import { TEST_CERT_PEM, TEST_KEY_PEM } from '../testing/pem-fixtures.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const filler = (length: number) => 'a'.repeat(length);
/** PEM text of exactly `length` characters: readers skip the lines before the `BEGIN` line. */
const padded = (pem: string, length: number) => `${'#'.repeat(length - pem.length - 1)}\n${pem}`;
const tooLong = (attribute: string, max: number) => `${attribute} is too long (maximum is ${max} characters)`;

describe('length limits of cluster agents', () => {
  let app: TestApp;
  let serial = 0;
  const nextAgent = () => registerAgent(app, `agent-${++serial}`);

  beforeAll(async () => {
    app = await startApp({ config: { plugins: { 'cluster-agents': { encryptionKey: 'test-encryption-key-of-32-characters!' } } } });
    const res = await app.put('/api/v4/application/settings', { receptive_cluster_agents_enabled: true }, { token: 'admin' });
    expect(res.status).toBe(200);
  });
  afterAll(() => app?.close());

  describe('agent and token attributes', () => {
    it('keeps an agent name of 63 characters and refuses 64, storing nothing', async () => {
      const kept = await app.post(agentsPath(app), { name: filler(63) }, { token: 'maintainer' });
      expect(kept.status).toBe(201);
      expect(kept.body.name).toBe(filler(63));
      const refused = await app.post(agentsPath(app), { name: `b${filler(63)}` }, { token: 'maintainer' });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual(modelErrors(tooLong('Name', 63)));
      const names = (await app.get(agentsPath(app), { token: 'developer', query: { per_page: '100' } })).body.map((a: { name: string }) => a.name);
      expect(names).not.toContain(`b${filler(63)}`);
    });

    it.each([
      { field: 'name', max: 255, body: (length: number) => ({ name: filler(length) }) },
      { field: 'description', max: 1024, body: (length: number) => ({ name: 'token', description: filler(length) }) },
    ])('keeps a token $field of $max characters and refuses one more, storing nothing', async ({ field, max, body }) => {
      const tokensPath = `${agentsPath(app)}/${await nextAgent()}/tokens`;
      const kept = await app.post(tokensPath, body(max), { token: 'maintainer' });
      expect(kept.status).toBe(201);
      expect((await app.get(`${tokensPath}/${kept.body.id}`, { token: 'maintainer' })).body[field]).toBe(filler(max));
      const refused = await app.post(tokensPath, body(max + 1), { token: 'maintainer' });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual(modelErrors(tooLong(field === 'name' ? 'Name' : 'Description', max)));
      expect((await app.get(tokensPath, { token: 'maintainer' })).body).toHaveLength(1);
    });
  });

  /** URL configuration attributes, limited by the columns of GitLab's table. */
  const URL_CONFIG_LIMITS = [
    {
      field: 'url',
      attribute: 'Url',
      max: 2048,
      body: (length: number) => ({ url: `grpcs://agent.example.com/${filler(length - 26)}` }),
      shown: (length: number) => ({ url: `grpcs://agent.example.com/${filler(length - 26)}` }),
    },
    {
      field: 'tls_host',
      attribute: 'Tls host',
      max: 2048,
      body: (length: number) => ({ url: 'grpcs://agent.example.com', tls_host: filler(length) }),
      shown: (length: number) => ({ tls_host: filler(length) }),
    },
    {
      field: 'ca_cert',
      attribute: 'Ca cert',
      max: 16_384,
      body: (length: number) => ({ url: 'grpcs://agent.example.com', ca_cert: b64(padded(TEST_CERT_PEM, length)) }),
      shown: (length: number) => ({ ca_cert: b64(padded(TEST_CERT_PEM, length)) }),
    },
    {
      field: 'client_cert',
      attribute: 'Client cert',
      max: 16_384,
      body: (length: number) => ({ url: 'grpcs://agent.example.com', client_cert: b64(padded(TEST_CERT_PEM, length)), client_key: b64(TEST_KEY_PEM) }),
      shown: (length: number) => ({ client_cert: b64(padded(TEST_CERT_PEM, length)) }),
    },
    {
      field: 'client_key',
      attribute: 'Client key',
      max: 16_384,
      body: (length: number) => ({ url: 'grpcs://agent.example.com', client_cert: b64(TEST_CERT_PEM), client_key: b64(padded(TEST_KEY_PEM, length)) }),
      shown: () => ({ client_cert: b64(TEST_CERT_PEM) }),
    },
  ];

  describe.each(URL_CONFIG_LIMITS)('URL configuration $field (at most $max)', ({ attribute, max, body, shown }) => {
    it('keeps a value at the limit whole', async () => {
      const configsPath = `${agentsPath(app)}/${await nextAgent()}/url_configurations`;
      const res = await app.post(configsPath, body(max), { token: 'maintainer' });
      expect(res.status).toBe(201);
      expect((await app.get(`${configsPath}/${res.body.id}`, { token: 'maintainer' })).body).toMatchObject(shown(max));
    });

    it('refuses a value one character over it and stores nothing', async () => {
      const configsPath = `${agentsPath(app)}/${await nextAgent()}/url_configurations`;
      const res = await app.post(configsPath, body(max + 1), { token: 'maintainer' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(modelErrors(tooLong(attribute, max)));
      expect((await app.get(configsPath, { token: 'maintainer' })).body).toEqual([]);
    });
  });
});

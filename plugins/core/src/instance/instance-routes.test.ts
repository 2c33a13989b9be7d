import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { KERNEL_VERSION } from '@forgekit/kernel';
import { coreTokensRef } from '../contracts.js';

describe('version, metadata and health', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app?.close());

  const METADATA = {
    version: '17.11.0',
    revision: KERNEL_VERSION,
    kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
    enterprise: false,
  };

  it('answers /version and /metadata with the same object', async () => {
    for (const path of ['/api/v4/version', '/api/v4/metadata']) {
      const res = await app.get(path, { token: 'guest' });
      expect(res.status, path).toBe(200);
      expect(res.body, path).toEqual(METADATA);
      expect(res.headers.get('content-type'), path).toBe('application/json');
    }
  });

  it('accepts a read_user token and refuses anonymous callers', async () => {
    const { secret } = await app.kernel.resolve(coreTokensRef).create({ userId: app.users.guest.id, name: 'reader', scopes: ['read_user'] });
    expect((await app.get('/api/v4/metadata', { token: secret })).status).toBe(200);
    for (const path of ['/api/v4/version', '/api/v4/metadata']) {
      const res = await app.get(path);
      expect(res.status, path).toBe(401);
      expect(res.body, path).toEqual({ message: '401 Unauthorized' });
    }
  });

  it('reports the configured version', async () => {
    const custom = await createTestApp({ config: { plugins: { core: { reportedVersion: '16.0.0' } } } });
    try {
      expect((await custom.get('/api/v4/version', { token: 'guest' })).body.version).toBe('16.0.0');
    } finally {
      await custom.close();
    }
  });

  it('answers /-/health in plain text', async () => {
    const res = await app.get('/-/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(res.text).toBe('Service OK');
  });

  it('answers /-/liveness and /-/readiness', async () => {
    const live = await app.get('/-/liveness');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'ok' });
    const ready = await app.get('/-/readiness');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ok', master_check: [{ status: 'ok' }] });
    const all = await app.get('/-/readiness', { query: { all: 1 } });
    expect(all.body).toEqual({ status: 'ok', master_check: [{ status: 'ok' }], db_check: [{ status: 'ok' }] });
  });

  it('hides the health checks from remote callers behind a trusted proxy', async () => {
    const proxied = await createTestApp({ seed: false, config: { trustProxy: true } });
    try {
      for (const path of ['/-/health', '/-/liveness', '/-/readiness']) {
        const res = await proxied.get(path, { headers: { 'X-Forwarded-For': '203.0.113.7' } });
        expect(res.status, path).toBe(404);
      }
    } finally {
      await proxied.close();
    }
  });

  it('ignores X-Forwarded-For unless the proxy is trusted', async () => {
    const res = await app.get('/-/health', { headers: { 'X-Forwarded-For': '127.0.0.1' } });
    expect(res.status).toBe(200);
    const remote = await createTestApp({ seed: false });
    try {
      // In-process requests have no socket address; a forged header must not make them remote or local.
      expect((await remote.get('/-/liveness', { headers: { 'X-Forwarded-For': '203.0.113.7' } })).status).toBe(200);
    } finally {
      await remote.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestKernelApp, type TestKernelApp } from '@forgekit/testing';
import { apiDocsPlugin } from '../plugin.js';

describe('API docs page', () => {
  let app: TestKernelApp;
  beforeAll(async () => {
    app = await createTestKernelApp({ plugins: [apiDocsPlugin] });
  });
  afterAll(() => app?.close());

  it('serves the page to anyone, loading Swagger UI and its start script relative to itself', async () => {
    const res = await app.get('/-/api-docs', { token: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('<script src="api-docs/swagger-ui-bundle.js"></script>');
    expect(res.text).toContain('<link rel="stylesheet" href="api-docs/swagger-ui.css">');
    expect(res.text).toContain('<script src="api-docs/start.js"></script>');
  });

  it('points the start script at the OpenAPI document below the same base path, with no outside validator', async () => {
    const res = await app.get('/-/api-docs/start.js', { token: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.text).toContain("new URL('../api/v4/openapi.json', document.baseURI)");
    expect(res.text).toContain('validatorUrl: null');
  });

  it("serves Swagger UI's files from swagger-ui-dist with their types, cached for a day", async () => {
    const script = await app.get('/-/api-docs/swagger-ui-bundle.js', { token: null });
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(script.text).toContain('SwaggerUIBundle');
    const css = await app.get('/-/api-docs/swagger-ui.css', { token: null });
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    const icon = await app.get('/-/api-docs/favicon-32x32.png', { token: null });
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/png');
  });

  it('answers 404 for any other file, of the package or elsewhere, and for object keys', async () => {
    for (const name of [
      'package.json',
      'index.js',
      'oauth2-redirect.html',
      '..%2Fpackage.json',
      '..%2F..%2F..%2Fpackage.json',
      'constructor',
      '__proto__',
      'toString',
    ]) {
      const res = await app.get(`/-/api-docs/${name}`, { token: null });
      expect(res.status, name).toBe(404);
      expect(res.body, name).toEqual({ message: '404 Not Found' });
    }
  });
});

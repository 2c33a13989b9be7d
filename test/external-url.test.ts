import { corePlugin } from '@forgekit/plugin-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ListeningServer, startListeningServer } from './support/listening-server.js';
import { python } from './support/python-gitlab.js';

/**
 * A server with no configured external URL, reached at 127.0.0.1 while it calls itself
 * localhost: python-gitlab follows its Link headers without warning that the base URL
 * differs, and every link names the address the client used.
 */
describe('links without a configured external URL', () => {
  let server: ListeningServer;

  beforeAll(async () => {
    server = await startListeningServer([corePlugin], { externalUrl: false });
    for (const name of ['first', 'second', 'third']) {
      const res = await fetch(`${server.url}/api/v4/projects`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': server.rootToken, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      expect(res.status).toBe(201);
    }
  });
  afterAll(() => server?.close());

  it('python-gitlab pages through a list with warnings as errors', async () => {
    const names = await python(
      server,
      server.rootToken,
      `import warnings
warnings.simplefilter('error')
print(json.dumps(sorted(p.name for p in gl.projects.list(iterator=True, per_page=1, owned=True))))`,
    );
    expect(names).toEqual(['first', 'second', 'third']);
  });

  it('web_url, http_url_to_repo and Link headers name the address the client used', async () => {
    const res = await fetch(`${server.url}/api/v4/projects?per_page=1&owned=true`, { headers: { 'PRIVATE-TOKEN': server.rootToken } });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(res.headers.get('link')).toContain(`<${server.url}/api/v4/projects?`);
    const [project] = (await res.json()) as { path: string; web_url: string; http_url_to_repo: string }[];
    expect(project.web_url).toBe(`${server.url}/root/${project.path}`);
    expect(project.http_url_to_repo).toBe(`${server.url}/root/${project.path}.git`);
  });
});

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { NAME_FORMAT_MESSAGE } from './alias-service.js';
import { projectAliasesPlugin } from '../plugin.js';

const FIELDS = ['id', 'project_id', 'name'];

describe('project aliases', () => {
  let app: TestApp;
  const create = (body: Record<string, unknown>, token = 'admin') => app.post('/api/v4/project_aliases', body, { token });

  beforeAll(async () => {
    app = await createTestApp({ plugins: [repositoriesPlugin, projectAliasesPlugin] });
  });
  afterAll(() => app?.close());

  describe('POST /project_aliases', () => {
    it('names a project by id or by path', async () => {
      const byId = await create({ project_id: String(app.project.id), name: 'main-app' });
      expect(byId.status).toBe(201);
      expect(Object.keys(byId.body)).toEqual(FIELDS);
      expect(byId.body).toEqual({ id: expect.any(Number), project_id: app.project.id, name: 'main-app' });
      const byPath = await create({ project_id: 'test-group/test-project', name: 'app.v2' });
      expect(byPath.status).toBe(201);
      expect(byPath.body.project_id).toBe(app.project.id);
    });

    it('refuses a name already taken', async () => {
      const res = await create({ project_id: app.project.id, name: 'main-app' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: { name: ['has already been taken'] } });
      // Names compare exactly.
      expect((await create({ project_id: app.project.id, name: 'Main-App' })).status).toBe(201);
    });

    it('refuses names outside the project path format, blank and long ones', async () => {
      for (const name of ['-dash', 'with space', 'repo.git', 'feed.atom', 'a/b', 'emoji😀']) {
        const res = await create({ project_id: app.project.id, name });
        expect(res.status, name).toBe(400);
        expect(res.body).toEqual({ message: { name: [NAME_FORMAT_MESSAGE] } });
      }
      expect((await create({ project_id: app.project.id, name: '' })).body).toEqual({ message: { name: ["can't be blank", NAME_FORMAT_MESSAGE] } });
      expect((await create({ project_id: app.project.id, name: 'a'.repeat(256) })).body).toEqual({
        message: { name: ['is too long (maximum is 255 characters)'] },
      });
      expect((await create({ project_id: app.project.id, name: 'a'.repeat(255) })).status).toBe(201);
    });

    it('answers 404 Project Not Found for an unknown project, and Grape errors for missing params', async () => {
      const res = await create({ project_id: 'nowhere/nothing', name: 'ghost' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Project Not Found' });
      expect((await create({ project_id: '999999', name: 'ghost' })).body).toEqual({ message: '404 Project Not Found' });
      expect((await create({})).body).toEqual({ error: 'project_id is missing, name is missing' });
    });

    it('is for administrators: 403 for everyone else, before the params; 401 anonymous', async () => {
      const res = await create({}, 'owner');
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
      expect((await app.post('/api/v4/project_aliases', { project_id: app.project.id, name: 'x' })).status).toBe(401);
    });
  });

  describe('GET', () => {
    it('lists aliases by id, paginated', async () => {
      const res = await app.get('/api/v4/project_aliases', { token: 'admin', query: { per_page: 2 } });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total')).toBe('4');
      expect(res.body.map((alias: { name: string }) => alias.name)).toEqual(['main-app', 'app.v2']);
      expect((await app.get('/api/v4/project_aliases', { token: 'maintainer' })).status).toBe(403);
    });

    it('gets one by name, dots included, and 404 Not found for others', async () => {
      const res = await app.get('/api/v4/project_aliases/app.v2', { token: 'admin' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ project_id: app.project.id, name: 'app.v2' });
      const missing = await app.get('/api/v4/project_aliases/nothing', { token: 'admin' });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 Not found' });
      expect((await app.get('/api/v4/project_aliases/app.v2', { token: 'owner' })).status).toBe(403);
    });
  });

  describe('DELETE /project_aliases/:name', () => {
    it('deletes an alias, then 404', async () => {
      expect((await create({ project_id: app.project.id, name: 'short-lived' })).status).toBe(201);
      expect((await app.delete('/api/v4/project_aliases/short-lived', { token: 'owner' })).status).toBe(403);
      expect((await app.delete('/api/v4/project_aliases/short-lived', { token: 'admin' })).status).toBe(204);
      expect((await app.delete('/api/v4/project_aliases/short-lived', { token: 'admin' })).body).toEqual({ message: '404 Not found' });
    });
  });

  describe('git over HTTP', () => {
    let server: Server;
    let url: string;
    let home: string;
    const git = (cwd: string, ...args: string[]) =>
      new Promise<{ code: number; stderr: string }>((resolve) =>
        execFile(
          'git',
          args,
          { cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' } },
          (error, _out, stderr) => resolve({ code: error ? 1 : 0, stderr: stderr.toString() }),
        ),
      );
    const remote = (role: 'maintainer' | 'nonMember', name: string) => `${url.replace('://', `://${role}:${app.tokens[role]}@`)}/${name}.git`;

    beforeAll(async () => {
      home = await mkdtemp(join(tmpdir(), 'forgekit-aliases-'));
      const commit = await app.post(
        `/api/v4/projects/${app.project.id}/repository/commits`,
        { branch: 'main', commit_message: 'Start', actions: [{ action: 'create', file_path: 'README.md', content: '# Aliased\n' }] },
        { token: 'maintainer' },
      );
      expect(commit.status).toBe(201);
      server = createServer(app.kernel.nodeListener);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      server?.closeAllConnections();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      if (home) await rm(home, { recursive: true, force: true });
    });

    it('clones the project through its alias', async () => {
      expect((await git(home, 'clone', '--quiet', remote('maintainer', 'main-app'), 'by-alias')).code).toBe(0);
      expect(await readFile(join(home, 'by-alias', 'README.md'), 'utf8')).toBe('# Aliased\n');
    });

    it('keeps the project’s access rules, and forgets a deleted alias', async () => {
      const hidden = await git(home, 'clone', '--quiet', remote('nonMember', 'main-app'), 'hidden');
      expect(hidden.code).not.toBe(0);
      expect(hidden.stderr).toContain("The project you were looking for could not be found or you don't have permission to view it.");
      expect((await app.delete('/api/v4/project_aliases/Main-App', { token: 'admin' })).status).toBe(204);
      const gone = await git(home, 'clone', '--quiet', remote('maintainer', 'Main-App'), 'gone');
      expect(gone.code).not.toBe(0);
    });
  });

  it('removes a deleted project’s aliases', async () => {
    const project = (await app.post('/api/v4/projects', { name: 'Doomed', path: 'doomed', namespace_id: app.group.id }, { token: 'owner' })).body;
    expect((await create({ project_id: project.id, name: 'doomed-alias' })).status).toBe(201);
    expect((await app.delete(`/api/v4/projects/${project.id}`, { token: 'owner' })).status).toBe(202);
    await expect.poll(async () => (await app.get('/api/v4/project_aliases/doomed-alias', { token: 'admin' })).status).toBe(404);
  });
});

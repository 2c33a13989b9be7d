import type { TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterAgentEntity } from '../entities/cluster-agent.js';
import { ClusterAgentTokenEntity } from '../entities/cluster-agent-token.js';
import { agentsPath, createAgentToken, createProject, modelErrors, registerAgent, startApp } from '../testing/agent-fixtures.js';

describe('cluster agents', () => {
  let app: TestApp;
  let path: string;
  beforeAll(async () => {
    app = await startApp();
    path = agentsPath(app);
  });
  afterAll(() => app?.close());

  describe('POST /projects/:id/cluster_agents', () => {
    it('registers an agent for a maintainer', async () => {
      const res = await app.post(path, { name: 'register-me' }, { token: 'maintainer' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        name: 'register-me',
        config_project: {
          id: app.project.id,
          description: '',
          name: 'Test Project',
          name_with_namespace: 'Test Group / Test Project',
          path: 'test-project',
          path_with_namespace: 'test-group/test-project',
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        },
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        created_by_user_id: app.users.maintainer.id,
        is_receptive: false,
      });
    });

    it('requires a name', async () => {
      const res = await app.post(path, {}, { token: 'maintainer' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'name is missing' });
    });

    it('rejects a name outside the allowed format', async () => {
      const res = await app.post(path, { name: '#4^x' }, { token: 'maintainer' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: `400 Bad request - ["Name can contain only lowercase letters, digits, and '-', but cannot start or end with '-'"]`,
      });
    });

    it('reports every failed rule of an empty name', async () => {
      const res = await app.post(path, { name: '' }, { token: 'maintainer' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        modelErrors("Name can't be blank", "Name can contain only lowercase letters, digits, and '-', but cannot start or end with '-'"),
      );
    });

    it('rejects a name longer than 63 characters', async () => {
      const res = await app.post(path, { name: 'a'.repeat(64) }, { token: 'maintainer' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(modelErrors('Name is too long (maximum is 63 characters)'));
    });

    it('rejects a name already taken in the project, but not in another project', async () => {
      await registerAgent(app, 'taken-name');
      const res = await app.post(path, { name: 'taken-name' }, { token: 'maintainer' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: '400 Bad request - ["Name has already been taken"]' });
      const otherProject = await createProject(app, 'other-for-names');
      expect((await app.post(agentsPath(app, otherProject), { name: 'taken-name' }, { token: 'maintainer' })).status).toBe(201);
    });

    it('registers a name only once when two requests race', async () => {
      const results = await Promise.all([1, 2].map(() => app.post(path, { name: 'racing' }, { token: 'maintainer' })));
      expect(results.map((res) => res.status).sort()).toEqual([201, 400]);
      expect(results.find((res) => res.status === 400)!.body).toEqual(modelErrors('Name has already been taken'));
    });

    it('forbids developers and hides the project from non-members', async () => {
      const developer = await app.post(path, { name: 'dev-agent' }, { token: 'developer' });
      expect(developer.status).toBe(403);
      expect(developer.body).toEqual({ message: '403 Forbidden' });
      const stranger = await app.post(path, { name: 'dev-agent' }, { token: 'nonMember' });
      expect(stranger.status).toBe(404);
      expect(stranger.body).toEqual({ message: '404 Project Not Found' });
    });

    it('needs authentication', async () => {
      const res = await app.post(path, { name: 'anonymous' });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: '401 Unauthorized' });
    });
  });

  describe('GET /projects/:id/cluster_agents', () => {
    let projectId: number;
    beforeAll(async () => {
      projectId = await createProject(app, 'listing');
      for (const name of ['zeta', 'alpha', 'mid']) await registerAgent(app, name, projectId);
    });

    it('lists the agents by name for a developer, paginated', async () => {
      const res = await app.get(agentsPath(app, projectId), { token: 'developer' });
      expect(res.status).toBe(200);
      expect(res.body.map((agent: { name: string }) => agent.name)).toEqual(['alpha', 'mid', 'zeta']);
      expect(res.headers.get('x-total')).toBe('3');
      const second = await app.get(agentsPath(app, projectId), { token: 'developer', query: { per_page: 1, page: 2 } });
      expect(second.body.map((agent: { name: string }) => agent.name)).toEqual(['mid']);
      expect(second.headers.get('x-next-page')).toBe('3');
    });

    it('answers 404 ClusterAgents Not Found below Developer', async () => {
      for (const role of ['reporter', 'guest']) {
        const res = await app.get(agentsPath(app, projectId), { token: role });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: '404 ClusterAgents Not Found' });
      }
    });

    it('answers 404 Project Not Found to non-members of a private project', async () => {
      const res = await app.get(agentsPath(app, projectId), { token: 'nonMember' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Project Not Found' });
    });
  });

  describe('GET /projects/:id/cluster_agents/:agent_id', () => {
    it('shows an agent to a developer', async () => {
      const id = await registerAgent(app, 'show-me');
      const res = await app.get(`${path}/${id}`, { token: 'developer' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id, name: 'show-me', config_project: { id: app.project.id }, is_receptive: false });
    });

    it('answers 404 Not found for a missing agent, an agent of another project, and callers below Developer', async () => {
      const otherProject = await createProject(app, 'other-for-show');
      const foreign = await registerAgent(app, 'foreign', otherProject);
      const own = await registerAgent(app, 'hidden-from-reporter');
      for (const [url, token] of [
        [`${path}/999999`, 'developer'],
        [`${path}/${foreign}`, 'developer'],
        [`${path}/${own}`, 'reporter'],
      ] as const) {
        const res = await app.get(url, { token });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: '404 Not found' });
      }
    });

    it('rejects a non-integer agent id', async () => {
      const res = await app.get(`${path}/abc`, { token: 'developer' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'agent_id is invalid' });
    });
  });

  describe('DELETE /projects/:id/cluster_agents/:agent_id', () => {
    it('deletes the agent with its tokens', async () => {
      const id = await registerAgent(app, 'delete-me');
      await createAgentToken(app, id, 'doomed');
      const res = await app.delete(`${path}/${id}`, { token: 'maintainer' });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await app.get(`${path}/${id}`, { token: 'maintainer' })).status).toBe(404);
      const { database } = app.kernel;
      expect(await database.rows(database.from(ClusterAgentTokenEntity).where('agentId', id))).toEqual([]);
    });

    it('forbids developers', async () => {
      const id = await registerAgent(app, 'keep-me');
      const res = await app.delete(`${path}/${id}`, { token: 'developer' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
    });

    it('answers 404 Not found for a missing agent', async () => {
      const res = await app.delete(`${path}/999999`, { token: 'maintainer' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Not found' });
    });

    it('answers 412 when the agent changed after If-Unmodified-Since', async () => {
      const id = await registerAgent(app, 'conditional');
      const before = new Date(Date.now() - 3_600_000).toUTCString();
      const stale = await app.delete(`${path}/${id}`, { token: 'maintainer', headers: { 'If-Unmodified-Since': before } });
      expect(stale.status).toBe(412);
      expect(stale.body).toEqual({ message: '412 Precondition Failed' });
      const after = new Date(Date.now() + 3_600_000).toUTCString();
      expect((await app.delete(`${path}/${id}`, { token: 'maintainer', headers: { 'If-Unmodified-Since': after } })).status).toBe(204);
    });
  });

  it('removes a deleted project’s agents and tokens', async () => {
    const projectId = await createProject(app, 'to-be-deleted');
    const id = await registerAgent(app, 'orphan', projectId);
    await createAgentToken(app, id, 'orphan-token', projectId);
    expect((await app.delete(`/api/v4/projects/${projectId}`, { token: 'owner' })).status).toBe(202);
    const { database } = app.kernel;
    expect(await database.rows(database.from(ClusterAgentEntity).where('projectId', projectId))).toEqual([]);
    expect(await database.rows(database.from(ClusterAgentTokenEntity).where('projectId', projectId))).toEqual([]);
  });
});

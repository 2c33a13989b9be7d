import { createHash } from 'node:crypto';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterAgentsServiceRef } from '../contracts.js';
import { ClusterAgentTokenEntity } from '../entities/cluster-agent-token.js';
import { agentsPath, createAgentToken, createProject, modelErrors, registerAgent, startApp } from '../testing/agent-fixtures.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const tokenRow = async (app: TestApp, id: number) => (await app.kernel.database.row(app.kernel.database.from(ClusterAgentTokenEntity).where('id', id)))!;

describe('cluster agent tokens', () => {
  let app: TestApp;
  const tokensPath = (agentId: number) => `${agentsPath(app)}/${agentId}/tokens`;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(() => app?.close());

  describe('POST .../tokens', () => {
    it('creates a token and returns its secret once, keeping only a digest', async () => {
      const agentId = await registerAgent(app, 'secret-keeper');
      const res = await app.post(tokensPath(agentId), { name: 'deploy', description: 'for CI' }, { token: 'maintainer' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        name: 'deploy',
        description: 'for CI',
        agent_id: agentId,
        status: 'active',
        created_at: expect.stringMatching(ISO),
        created_by_user_id: app.users.maintainer.id,
        last_used_at: null,
        token: expect.stringMatching(/^fkagent-[A-Za-z0-9]{50}$/),
      });
      const row = await tokenRow(app, res.body.id);
      expect(row.tokenDigest).toBe(createHash('sha256').update(res.body.token).digest('hex'));
      expect(Object.values(row)).not.toContain(res.body.token);
      const shown = await app.get(`${tokensPath(agentId)}/${res.body.id}`, { token: 'maintainer' });
      expect(shown.body).not.toHaveProperty('token');
    });

    it('defaults the description to null', async () => {
      const agentId = await registerAgent(app, 'no-description');
      const res = await app.post(tokensPath(agentId), { name: 'plain' }, { token: 'maintainer' });
      expect(res.status).toBe(201);
      expect(res.body.description).toBeNull();
    });

    it('requires a name', async () => {
      const agentId = await registerAgent(app, 'needs-name');
      const res = await app.post(tokensPath(agentId), {}, { token: 'maintainer' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'name is missing' });
    });

    it('reports model errors for a blank name and over-long fields', async () => {
      const agentId = await registerAgent(app, 'bad-fields');
      const blank = await app.post(tokensPath(agentId), { name: ' ' }, { token: 'maintainer' });
      expect(blank.status).toBe(400);
      expect(blank.body).toEqual({ message: `400 Bad request - ["Name can't be blank"]` });
      const long = await app.post(tokensPath(agentId), { name: 'n'.repeat(256), description: 'd'.repeat(1025) }, { token: 'maintainer' });
      expect(long.status).toBe(400);
      expect(long.body).toEqual(modelErrors('Description is too long (maximum is 1024 characters)', 'Name is too long (maximum is 255 characters)'));
    });

    it('allows at most two active tokens per agent', async () => {
      const agentId = await registerAgent(app, 'two-tokens');
      const first = await createAgentToken(app, agentId, 'one');
      await createAgentToken(app, agentId, 'two');
      const third = await app.post(tokensPath(agentId), { name: 'three' }, { token: 'maintainer' });
      expect(third.status).toBe(400);
      expect(third.body).toEqual({ message: '400 Bad request - An agent can have only two active tokens at a time' });
      expect((await app.delete(`${tokensPath(agentId)}/${first.id}`, { token: 'maintainer' })).status).toBe(204);
      expect((await app.post(tokensPath(agentId), { name: 'three' }, { token: 'maintainer' })).status).toBe(201);
    });

    it('keeps the limit when creations race', async () => {
      const agentId = await registerAgent(app, 'racing-tokens');
      const results = await Promise.all(['a', 'b', 'c'].map((name) => app.post(tokensPath(agentId), { name }, { token: 'maintainer' })));
      expect(results.map((res) => res.status).sort()).toEqual([201, 201, 400]);
      expect((await app.get(tokensPath(agentId), { token: 'maintainer' })).body).toHaveLength(2);
    });

    it('forbids developers and guests, and hides missing agents', async () => {
      const agentId = await registerAgent(app, 'guarded');
      for (const role of ['developer', 'guest']) {
        const res = await app.post(tokensPath(agentId), { name: 'nope' }, { token: role });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ message: '403 Forbidden' });
      }
      const missing = await app.post(tokensPath(999999), { name: 'nope' }, { token: 'maintainer' });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 Not found' });
    });
  });

  describe('GET .../tokens', () => {
    it('lists only active tokens without last_used_at, most recently used first', async () => {
      const agentId = await registerAgent(app, 'listed');
      const unused = await createAgentToken(app, agentId, 'unused');
      const used = await createAgentToken(app, agentId, 'used');
      await app.kernel.resolve(clusterAgentsServiceRef).authenticateAgentToken(used.token);
      const res = await app.get(tokensPath(agentId), { token: 'developer' });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total')).toBe('2');
      expect(res.body.map((token: { id: number }) => token.id)).toEqual([used.id, unused.id]);
      expect(res.body[0]).toEqual({
        id: used.id,
        name: 'used',
        description: null,
        agent_id: agentId,
        status: 'active',
        created_at: expect.stringMatching(ISO),
        created_by_user_id: app.users.maintainer.id,
      });
      await app.delete(`${tokensPath(agentId)}/${unused.id}`, { token: 'maintainer' });
      const afterRevoke = await app.get(tokensPath(agentId), { token: 'developer' });
      expect(afterRevoke.body.map((token: { id: number }) => token.id)).toEqual([used.id]);
    });

    it('answers 404 Not found below Developer and 404 Project Not Found to non-members', async () => {
      const agentId = await registerAgent(app, 'unlisted');
      for (const role of ['reporter', 'guest']) {
        const res = await app.get(tokensPath(agentId), { token: role });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: '404 Not found' });
      }
      const stranger = await app.get(tokensPath(agentId), { token: 'nonMember' });
      expect(stranger.status).toBe(404);
      expect(stranger.body).toEqual({ message: '404 Project Not Found' });
    });
  });

  describe('GET .../tokens/:token_id', () => {
    it('shows an active token with last_used_at', async () => {
      const agentId = await registerAgent(app, 'shown');
      const created = await createAgentToken(app, agentId, 'visible');
      const res = await app.get(`${tokensPath(agentId)}/${created.id}`, { token: 'developer' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: created.id, name: 'visible', agent_id: agentId, status: 'active', last_used_at: null });
    });

    it('answers 404 Not found for revoked, missing and foreign tokens', async () => {
      const agentId = await registerAgent(app, 'revoked-show');
      const revoked = await createAgentToken(app, agentId, 'gone');
      await app.delete(`${tokensPath(agentId)}/${revoked.id}`, { token: 'maintainer' });
      const otherAgent = await registerAgent(app, 'other-owner');
      const foreign = await createAgentToken(app, otherAgent, 'foreign');
      for (const tokenId of [revoked.id, 999999, foreign.id]) {
        const res = await app.get(`${tokensPath(agentId)}/${tokenId}`, { token: 'developer' });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: '404 Not found' });
      }
    });
  });

  describe('DELETE .../tokens/:token_id', () => {
    it('revokes the token, keeping the row, and accepts a second revoke', async () => {
      const agentId = await registerAgent(app, 'revoker');
      const token = await createAgentToken(app, agentId, 'short-lived');
      const res = await app.delete(`${tokensPath(agentId)}/${token.id}`, { token: 'maintainer' });
      expect(res.status).toBe(204);
      expect((await tokenRow(app, token.id)).status).toBe('revoked');
      expect((await app.delete(`${tokensPath(agentId)}/${token.id}`, { token: 'maintainer' })).status).toBe(204);
    });

    it('forbids developers and answers 404 Not found for missing and foreign tokens', async () => {
      const agentId = await registerAgent(app, 'revoke-guard');
      const token = await createAgentToken(app, agentId, 'kept');
      const developer = await app.delete(`${tokensPath(agentId)}/${token.id}`, { token: 'developer' });
      expect(developer.status).toBe(403);
      expect(developer.body).toEqual({ message: '403 Forbidden' });
      const otherProject = await createProject(app, 'token-elsewhere');
      const otherAgent = await registerAgent(app, 'elsewhere', otherProject);
      for (const url of [`${tokensPath(agentId)}/999999`, `${agentsPath(app, otherProject)}/${otherAgent}/tokens/${token.id}`]) {
        const res = await app.delete(url, { token: 'maintainer' });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: '404 Not found' });
      }
    });
  });

  describe('authenticateAgentToken', () => {
    it('identifies the agent and records last_used_at', async () => {
      const agentId = await registerAgent(app, 'authenticating');
      const token = await createAgentToken(app, agentId, 'kas');
      const service = app.kernel.resolve(clusterAgentsServiceRef);
      expect(await service.authenticateAgentToken(token.token)).toEqual({
        tokenId: token.id,
        agentId,
        agentName: 'authenticating',
        projectId: app.project.id,
      });
      const shown = await app.get(`${tokensPath(agentId)}/${token.id}`, { token: 'developer' });
      expect(shown.body.last_used_at).toMatch(ISO);
    });

    it('refuses unknown and revoked tokens', async () => {
      const agentId = await registerAgent(app, 'refused');
      const token = await createAgentToken(app, agentId, 'revoked');
      await app.delete(`${tokensPath(agentId)}/${token.id}`, { token: 'maintainer' });
      const service = app.kernel.resolve(clusterAgentsServiceRef);
      expect(await service.authenticateAgentToken(token.token)).toBeNull();
      expect(await service.authenticateAgentToken('fkagent-unknown')).toBeNull();
    });
  });
});

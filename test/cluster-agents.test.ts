import { AccessLevel } from '@gitbeaker/rest';
import { clusterAgentsPlugin } from '@forgekit/plugin-cluster-agents';
import { corePlugin } from '@forgekit/plugin-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, failureOf, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';

describe('cluster agents through @gitbeaker/rest', () => {
  let server: ListeningServer;
  let admin: Api;
  let developer: UserWithToken;
  let projectId: number;
  beforeAll(async () => {
    server = await startListeningServer([corePlugin, clusterAgentsPlugin]);
    admin = clientFor(server, server.rootToken);
    const project = await admin.Projects.create({ name: 'Cluster Config' });
    projectId = project.id;
    developer = await createUserWithToken(admin, server, 'kube-dev');
    await admin.ProjectMembers.add(projectId, AccessLevel.DEVELOPER, { userId: developer.id });
  });
  afterAll(() => server?.close());

  it('registers an agent, rotates its tokens and unregisters it', async () => {
    const agent = await admin.Agents.register(projectId, 'production');
    expect(agent).toMatchObject({ name: 'production', config_project: { id: projectId }, is_receptive: false });
    expect((await developer.api.Agents.all(projectId)).map((a) => a.name)).toEqual(['production']);
    expect((await developer.api.Agents.show(projectId, agent.id)).id).toBe(agent.id);

    // gitbeaker's Agents.createToken sends a GET, so tokens are created through its requester.
    const tokensPath = `projects/${projectId}/cluster_agents/${agent.id}/tokens`;
    const createToken = (api: Api, name: string, description?: string) =>
      api.requester.post<{ id: number; token: string }>(tokensPath, { body: { name, description } });
    const first = (await createToken(admin, 'first', 'initial')).body;
    expect(first.token).toMatch(/^fkagent-[A-Za-z0-9]{50}$/);
    const second = (await createToken(admin, 'second')).body;
    expect(await failureOf(createToken(admin, 'third'))).toEqual({
      status: 400,
      description: '400 Bad request - An agent can have only two active tokens at a time',
    });
    expect(await failureOf(createToken(developer.api, 'not-allowed'))).toEqual({ status: 403, description: '403 Forbidden' });

    expect((await developer.api.Agents.allTokens(projectId, agent.id)).map((t) => t.name).sort()).toEqual(['first', 'second']);
    expect(await developer.api.Agents.showToken(projectId, agent.id, first.id)).toMatchObject({ id: first.id, status: 'active', last_used_at: null });

    await admin.Agents.removeToken(projectId, agent.id, first.id);
    expect(await failureOf(admin.Agents.showToken(projectId, agent.id, first.id))).toEqual({ status: 404, description: '404 Not found' });
    expect((await admin.Agents.allTokens(projectId, agent.id)).map((t) => t.id)).toEqual([second.id]);

    await admin.Agents.unregister(projectId, agent.id);
    expect(await admin.Agents.all(projectId)).toEqual([]);
  });

  it('configures a receptive agent once the instance allows it', async () => {
    const agent = await admin.Agents.register(projectId, 'receptive');
    const path = `projects/${projectId}/cluster_agents/${agent.id}/url_configurations`;
    expect(await failureOf(admin.requester.get(path))).toEqual({ status: 404, description: '404 Not Found' });

    await admin.ApplicationSettings.edit({ receptive_cluster_agents_enabled: true } as never);
    const created = await admin.requester.post<Record<string, unknown>>(path, { body: { url: 'grpcs://agent.internal:8443', tls_host: 'agent.internal' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ agent_id: agent.id, url: 'grpcs://agent.internal:8443', tls_host: 'agent.internal', client_cert: null });
    expect(created.body.public_key).toEqual(expect.any(String));
    expect((await admin.requester.get(path)).body).toEqual([created.body]);
    expect((await admin.Agents.show(projectId, agent.id)).is_receptive).toBe(true);
    expect((await admin.requester.get(`${path}/${created.body.id}`)).body).toEqual(created.body);
    expect(await failureOf(admin.requester.get(`${path}/${Number(created.body.id) + 1}`))).toEqual({ status: 404, description: '404 Not Found' });
    expect(await failureOf(admin.requester.post(path, { body: { url: 'grpcs://other.internal:8443' } }))).toEqual({
      status: 400,
      description: '400 Bad request - URL configuration already exists for this agent',
    });
    expect((await developer.api.requester.get(path)).body).toEqual([created.body]);
    expect(await failureOf(developer.api.requester.delete(`${path}/${created.body.id}`))).toEqual({ status: 403, description: '403 Forbidden' });

    const removed = await admin.requester.delete(`${path}/${created.body.id}`);
    expect(removed.status).toBe(204);
    expect((await admin.requester.get(path)).body).toEqual([]);
  });

  it('pages the agents of a project and refuses a taken name', async () => {
    // "receptive" remains from the scenario above
    await admin.Agents.register(projectId, 'staging');
    const canary = await admin.Agents.register(projectId, 'canary');
    expect(await failureOf(admin.Agents.register(projectId, 'staging'))).toEqual({
      status: 400,
      description: '400 Bad request - ["Name has already been taken"]',
    });
    expect(await failureOf(developer.api.Agents.register(projectId, 'dev-agent'))).toEqual({ status: 403, description: '403 Forbidden' });

    // ordered by name
    type Page = { data: { name: string }[]; paginationInfo: Record<string, number | null> };
    const second = (await developer.api.Agents.all(projectId, { page: 2, perPage: 1, showExpanded: true } as never)) as unknown as Page;
    expect(second.data.map((agent) => agent.name)).toEqual(['receptive']);
    expect(second.paginationInfo).toEqual({ total: 3, next: 3, current: 2, previous: 1, perPage: 1, totalPages: 3 });
    expect((await developer.api.Agents.all(projectId, { perPage: 2 } as never)).map((agent) => agent.name)).toEqual(['canary', 'receptive', 'staging']);
    expect(canary).toEqual({
      id: expect.any(Number),
      name: 'canary',
      created_at: expect.any(String),
      created_by_user_id: 1,
      is_receptive: false,
      config_project: expect.objectContaining({ id: projectId, name: 'Cluster Config', path_with_namespace: 'root/cluster-config' }),
    });
  });
});

import { AccessLevel } from '@gitbeaker/rest';
import { corePlugin } from '@forgekit/plugin-core';
import { planLimitsPlugin } from '@forgekit/plugin-plan-limits';
import { runnersPlugin } from '@forgekit/plugin-runners';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, failureOf, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';

type TokenResult = { token: string; token_expires_at: string | null };

describe('runners through @gitbeaker/rest', () => {
  let server: ListeningServer;
  let api: Api;
  let mel: UserWithToken; // maintainer of the group
  let outsider: UserWithToken; // no membership
  let projectId: number;
  let otherProjectId: number;
  let groupId: number;

  /** Registration token resets (instance, group, project) have no client method; they go through the client's requester. */
  async function resetRegistrationToken(path: string, client: Api = api): Promise<string> {
    const res = await client.requester.post<TokenResult>(`${path}/reset_registration_token`);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ token: expect.any(String), token_expires_at: null });
    return res.body.token;
  }

  /** Authentication token resets, by the runner itself (its token in the body) or by a user (the runner id in the path). */
  async function resetAuthenticationToken(path: string, body?: Record<string, unknown>): Promise<string> {
    const res = await api.requester.post<TokenResult>(path, { body });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ token: expect.stringMatching(/^fkrt/), token_expires_at: null });
    return res.body.token;
  }

  const verify = (token: string) => api.Runners.verify({ token, systemId: 's_1' } as never) as Promise<unknown> as Promise<TokenResult & { id: number }>;

  beforeAll(async () => {
    server = await startListeningServer([corePlugin, planLimitsPlugin, runnersPlugin]);
    api = clientFor(server, server.rootToken);
    const group = await api.Groups.create('Build Farm', 'build-farm');
    groupId = group.id;
    projectId = (await api.Projects.create({ name: 'app', namespaceId: group.id })).id;
    otherProjectId = (await api.Projects.create({ name: 'lib', namespaceId: group.id })).id;
    [mel, outsider] = await Promise.all(['mel', 'olga'].map((name) => createUserWithToken(api, server, name)));
    await api.GroupMembers.add(groupId, AccessLevel.MAINTAINER, { userId: mel.id });
  });
  afterAll(() => server?.close());

  it('registers, verifies, lists, edits and unregisters an instance runner', async () => {
    const registration = await resetRegistrationToken('runners');
    const registered = await api.Runners.register(registration, { description: 'docker-1', tagList: ['docker', 'linux'], maximumTimeout: 3600 });
    expect(registered.token).toMatch(/^fkrtr-t1_/);

    await api.Runners.verify({ token: registered.token, systemId: 's_1', info: { version: '17.3.0' } } as never);
    const shown = await api.Runners.show(registered.id);
    expect(shown).toMatchObject({
      description: 'docker-1',
      status: 'online',
      online: true,
      is_shared: true,
      tag_list: ['docker', 'linux'],
      version: '17.3.0',
      maximum_timeout: 3600,
    });

    const listed = await api.Runners.all({ type: 'instance_type', tagList: ['docker'] });
    expect(listed.map((runner) => runner.id)).toEqual([registered.id]);
    expect(await api.Runners.all({ status: 'never_contacted' })).toEqual([]);

    const edited = await api.Runners.edit(registered.id, { paused: true, tagList: ['docker'], runUntagged: false });
    expect(edited).toMatchObject({ paused: true, active: false, status: 'paused', tag_list: ['docker'], run_untagged: false });
    expect(await api.Runners.allJobs(registered.id)).toEqual([]);

    await api.Runners.remove({ token: registered.token });
    await expect(api.Runners.show(registered.id)).rejects.toMatchObject({ cause: { response: { status: 404 } } });
  });

  it('creates a project runner, shares it with another project and removes it', async () => {
    const created = await api.Users.createCIRunner('project_type', { projectId, description: 'app-runner' } as never);
    expect(created.token).toMatch(/^fkrt-t3_/);

    const projectRunners = await api.Runners.all({ projectId });
    expect(projectRunners.map((runner) => runner.description)).toEqual(['app-runner']);
    const enabled = await api.Runners.enable(otherProjectId, created.id);
    expect(enabled).toMatchObject({ id: created.id, runner_type: 'project_type' });
    expect((await api.Runners.all({ projectId: otherProjectId })).map((runner) => runner.id)).toEqual([created.id]);
    await api.Runners.disable(otherProjectId, created.id);
    expect(await api.Runners.all({ projectId: otherProjectId })).toEqual([]);

    await api.Runners.remove({ runnerId: created.id });
    expect(await api.Runners.all({ projectId })).toEqual([]);
  });

  it('registers a group runner that the group and its projects list', async () => {
    const registration = await resetRegistrationToken(`groups/${groupId}/runners`);
    const runner = await api.Runners.register(registration, { description: 'group-runner' });
    expect((await api.Runners.all({ groupId })).map((r) => r.id)).toEqual([runner.id]);
    expect((await api.Runners.all({ projectId })).map((r) => r.id)).toEqual([runner.id]);
    expect(await api.Runners.all({ groupId, type: 'project_type' })).toEqual([]);
    const shown = await api.Runners.show(runner.id);
    expect(shown.groups).toEqual([{ id: groupId, web_url: `${server.url}/groups/build-farm`, name: 'Build Farm' }]);
  });

  it('registers with a project token and rotates registration and authentication tokens', async () => {
    const registration = await resetRegistrationToken(`projects/${projectId}/runners`, mel.api);
    const runner = await api.Runners.register(registration, { description: 'project-registered' });
    expect(await api.Runners.show(runner.id)).toMatchObject({
      runner_type: 'project_type',
      is_shared: false,
      projects: [{ id: projectId, path_with_namespace: 'build-farm/app' }],
    });

    expect(await resetRegistrationToken(`projects/${projectId}/runners`, mel.api)).not.toBe(registration);
    expect(await failureOf(api.Runners.register(registration))).toEqual({ status: 403, description: '403 Forbidden' });
    expect(await failureOf(resetRegistrationToken('runners', mel.api))).toEqual({ status: 403, description: '403 Forbidden' });

    const rotatedByRunner = await resetAuthenticationToken('runners/reset_authentication_token', { token: runner.token });
    expect(rotatedByRunner).not.toBe(runner.token);
    expect(await failureOf(verify(runner.token))).toEqual({ status: 403, description: '403 Forbidden' });
    expect(await verify(rotatedByRunner)).toEqual({ id: runner.id, token: rotatedByRunner, token_expires_at: null });

    const rotatedByUser = await resetAuthenticationToken(`runners/${runner.id}/reset_authentication_token`);
    expect(await failureOf(verify(rotatedByRunner))).toEqual({ status: 403, description: '403 Forbidden' });
    expect((await verify(rotatedByUser)).id).toBe(runner.id);
  });

  it('lists the runners a maintainer owns, page by page, and keeps other users out', async () => {
    const createRunner = (description: string) => api.Users.createCIRunner('project_type', { projectId: otherProjectId, description } as never);
    const first = await createRunner('owned-1');
    const second = await createRunner('owned-2');
    const owned = await mel.api.Runners.all({ owned: true });
    // project runners of projects mel maintains; the group runner needs the Owner role
    expect(owned.map((runner) => runner.description)).toEqual(['project-registered', 'owned-1', 'owned-2']);
    expect(owned[0]).toMatchObject({
      description: 'project-registered',
      active: true,
      paused: false,
      is_shared: false,
      runner_type: 'project_type',
      name: null,
      online: true,
      status: 'online',
      job_execution_status: 'idle',
    });
    expect(owned[1]).toMatchObject({ description: 'owned-1', online: false, status: 'never_contacted' });

    const secondPage = await mel.api.Runners.all({ owned: true, page: 2, perPage: 1, showExpanded: true });
    expect(secondPage.data.map((runner) => runner.id)).toEqual([first.id]);
    expect(secondPage.paginationInfo).toEqual({ total: 3, next: 3, current: 2, previous: 1, perPage: 1, totalPages: 3 });
    expect((await api.Runners.all({ type: 'project_type', perPage: 1 })).map((runner) => runner.description)).toEqual([
      'project-registered',
      'owned-1',
      'owned-2',
    ]);

    expect(await failureOf(mel.api.Runners.all())).toEqual({ status: 403, description: '403 Forbidden' });
    expect(await mel.api.Runners.edit(second.id, { maintenanceNote: 'replace the disk' } as never)).toMatchObject({
      id: second.id,
      maintenance_note: 'replace the disk',
    });
    expect(await failureOf(mel.api.Runners.edit(second.id, { maintenanceNote: 'x'.repeat(1025) } as never))).toEqual({
      status: 400,
      description: JSON.stringify({ maintenance_note: ['is too long (maximum is 1024 characters)'] }),
    });
    const outsiderCalls = [
      () => outsider.api.Runners.show(second.id),
      () => outsider.api.Runners.edit(second.id, { paused: true }),
      () => outsider.api.Runners.allJobs(second.id),
    ];
    for (const call of outsiderCalls) {
      expect(await failureOf(call())).toEqual({ status: 403, description: '403 Forbidden - No access granted' });
    }
    expect(await outsider.api.Runners.all({ owned: true })).toEqual([]);

    await api.Runners.enable(projectId, second.id);
    expect(await failureOf(mel.api.Runners.remove({ runnerId: second.id }))).toEqual({
      status: 403,
      description: '403 Forbidden - Runner associated with more than one project',
    });
    await mel.api.Runners.remove({ runnerId: first.id });
    expect(await failureOf(api.Runners.show(first.id))).toEqual({ status: 404, description: '404 Not found' });
  });
});

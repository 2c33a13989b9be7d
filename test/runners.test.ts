import { Gitlab } from '@gitbeaker/rest';
import { corePlugin } from '@forgekit/plugin-core';
import { planLimitsPlugin } from '@forgekit/plugin-plan-limits';
import { runnersPlugin } from '@forgekit/plugin-runners';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';

describe('runners through @gitbeaker/rest', () => {
  let server: ListeningServer;
  let api: InstanceType<typeof Gitlab>;
  let projectId: number;
  let otherProjectId: number;
  let groupId: number;

  /** Registration token resets have no client method for projects and the instance. */
  async function resetRegistrationToken(path: string): Promise<string> {
    const res = await fetch(`${server.url}/api/v4${path}/reset_registration_token`, { method: 'POST', headers: { 'PRIVATE-TOKEN': server.rootToken } });
    expect(res.status).toBe(201);
    return ((await res.json()) as { token: string }).token;
  }

  beforeAll(async () => {
    server = await startListeningServer([corePlugin, planLimitsPlugin, runnersPlugin]);
    api = new Gitlab({ host: server.url, token: server.rootToken });
    const group = await api.Groups.create('Build Farm', 'build-farm');
    groupId = group.id;
    projectId = (await api.Projects.create({ name: 'app', namespaceId: group.id })).id;
    otherProjectId = (await api.Projects.create({ name: 'lib', namespaceId: group.id })).id;
  });
  afterAll(() => server?.close());

  it('registers, verifies, lists, edits and unregisters an instance runner', async () => {
    const registration = await resetRegistrationToken('/runners');
    const registered = await api.Runners.register(registration, { description: 'docker-1', tagList: ['docker', 'linux'], maximumTimeout: 3600 });
    expect(registered.token).toMatch(/^fkrtr-t1_/);

    await api.Runners.verify({ token: registered.token, systemId: 's_1', info: { version: '17.3.0' } } as never);
    const shown = await api.Runners.show(registered.id);
    expect(shown).toMatchObject({ description: 'docker-1', status: 'online', online: true, is_shared: true, tag_list: ['docker', 'linux'], version: '17.3.0', maximum_timeout: 3600 });

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
    const registration = await resetRegistrationToken(`/groups/${groupId}/runners`);
    const runner = await api.Runners.register(registration, { description: 'group-runner' });
    expect((await api.Runners.all({ groupId })).map((r) => r.id)).toEqual([runner.id]);
    expect((await api.Runners.all({ projectId })).map((r) => r.id)).toEqual([runner.id]);
    expect((await api.Runners.all({ groupId, type: 'project_type' }))).toEqual([]);
    const shown = await api.Runners.show(runner.id);
    expect(shown.groups).toEqual([{ id: groupId, web_url: `${server.url}/groups/build-farm`, name: 'Build Farm' }]);
  });
});

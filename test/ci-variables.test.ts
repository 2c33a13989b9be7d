import { Gitlab } from '@gitbeaker/rest';
import { corePlugin } from '@forgekit/plugin-core';
import { ciVariablesPlugin } from '@forgekit/plugin-ci-variables';
import { planLimitsPlugin } from '@forgekit/plugin-plan-limits';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';

describe('CI/CD variables and plan limits through @gitbeaker/rest', () => {
  let server: ListeningServer;
  let api: InstanceType<typeof Gitlab>;
  let projectId: number;
  let groupId: number;

  beforeAll(async () => {
    server = await startListeningServer([corePlugin, planLimitsPlugin, ciVariablesPlugin]);
    api = new Gitlab({ host: server.url, token: server.rootToken });
    const group = await api.Groups.create('Variables Group', 'variables-group');
    groupId = group.id;
    const project = await api.Projects.create({ name: 'Variables Project', namespaceId: groupId });
    projectId = project.id;
  });
  afterAll(() => server?.close());

  it('manages project variables, scopes included', async () => {
    const created = await api.ProjectVariables.create(projectId, 'DEPLOY_TOKEN', 'abcdefgh12345', { masked: true, protected: true, environmentScope: 'production' });
    expect(created).toMatchObject({ key: 'DEPLOY_TOKEN', value: 'abcdefgh12345', masked: true, protected: true, environment_scope: 'production', hidden: false });
    await api.ProjectVariables.create(projectId, 'DEPLOY_TOKEN', 'staging-value', { environmentScope: 'staging' });

    const all = await api.ProjectVariables.all(projectId);
    expect(all.map((v) => v.environment_scope)).toEqual(['production', 'staging']);

    const staging = await api.ProjectVariables.show(projectId, 'DEPLOY_TOKEN', { filter: { environment_scope: 'staging' } });
    expect(staging.value).toBe('staging-value');

    const edited = await api.ProjectVariables.edit(projectId, 'DEPLOY_TOKEN', 'new-staging-value', { filter: { environment_scope: 'staging' }, protected: true });
    expect(edited).toMatchObject({ value: 'new-staging-value', protected: true, environment_scope: 'staging' });

    await expect(api.ProjectVariables.show(projectId, 'DEPLOY_TOKEN')).rejects.toMatchObject({ cause: { response: { status: 409 } } });
    await api.ProjectVariables.remove(projectId, 'DEPLOY_TOKEN', { filter: { environment_scope: 'staging' } });
    expect((await api.ProjectVariables.show(projectId, 'DEPLOY_TOKEN')).environment_scope).toBe('production');
  });

  it('reports a duplicate key with GitLab\'s body', async () => {
    await api.ProjectVariables.create(projectId, 'ONLY_ONCE', 'value');
    const failure = await api.ProjectVariables.create(projectId, 'ONLY_ONCE', 'value').catch((error: unknown) => error);
    expect(failure).toMatchObject({ cause: { response: { status: 400 } } });
    expect(JSON.parse((failure as { cause: { description: string } }).cause.description)).toEqual({ key: ['(ONLY_ONCE) has already been taken'] });
  });

  it('manages group variables', async () => {
    await api.GroupVariables.create(groupId, 'GROUP_KEY', 'group-value', { variableType: 'file' });
    expect(await api.GroupVariables.show(groupId, 'GROUP_KEY')).toMatchObject({ variable_type: 'file', value: 'group-value' });
    await api.GroupVariables.remove(groupId, 'GROUP_KEY');
    expect(await api.GroupVariables.all(groupId)).toEqual([]);
  });

  it('enforces the instance variable limit set through the plan limits API', async () => {
    const limits = await api.ApplicationPlanLimits.show();
    expect(limits).toMatchObject({ ci_instance_level_variables: 25, pipeline_hierarchy_size: 1000 });
    const edited = await api.ApplicationPlanLimits.edit('default', { ciInstanceLevelVariables: 1 });
    expect(edited.ci_instance_level_variables).toBe(1);

    const variable = await api.InstanceLevelCICDVariables.create('INSTANCE_KEY', 'instance-value', { raw: true });
    expect(variable).toEqual({ variable_type: 'env_var', key: 'INSTANCE_KEY', value: 'instance-value', protected: false, masked: false, raw: true, description: null });
    const failure = await api.InstanceLevelCICDVariables.create('SECOND_KEY', 'x').catch((error: unknown) => error);
    expect(failure).toMatchObject({ cause: { response: { status: 400 } } });
    expect(JSON.parse((failure as { cause: { description: string } }).cause.description)).toEqual({ base: ['Maximum number of ci instance level variables (1) exceeded'] });

    expect((await api.InstanceLevelCICDVariables.edit('INSTANCE_KEY', 'changed')).value).toBe('changed');
    expect(await api.InstanceLevelCICDVariables.all()).toHaveLength(1);
    // gitbeaker's InstanceLevelCICDVariables.remove sends a GET, so delete with plain fetch.
    const removed = await fetch(`${server.url}/api/v4/admin/ci/variables/INSTANCE_KEY`, { method: 'DELETE', headers: { 'PRIVATE-TOKEN': server.rootToken } });
    expect(removed.status).toBe(204);
    expect(await api.InstanceLevelCICDVariables.all()).toEqual([]);
  });
});

import { AccessLevel } from '@gitbeaker/rest';
import { corePlugin } from '@forgekit/plugin-core';
import { ciVariablesPlugin } from '@forgekit/plugin-ci-variables';
import { planLimitsPlugin } from '@forgekit/plugin-plan-limits';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, failureOf, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';

describe('CI/CD variables and plan limits through @gitbeaker/rest', () => {
  let server: ListeningServer;
  let api: Api;
  let dev: UserWithToken; // developer of the group
  let projectId: number;
  let groupId: number;

  beforeAll(async () => {
    server = await startListeningServer([corePlugin, planLimitsPlugin, ciVariablesPlugin]);
    api = clientFor(server, server.rootToken);
    const group = await api.Groups.create('Variables Group', 'variables-group');
    groupId = group.id;
    const project = await api.Projects.create({ name: 'Variables Project', namespaceId: groupId });
    projectId = project.id;
    dev = await createUserWithToken(api, server, 'devon');
    await api.GroupMembers.add(groupId, AccessLevel.DEVELOPER, { userId: dev.id });
  });
  afterAll(() => server?.close());

  it('manages project variables, scopes included', async () => {
    const created = await api.ProjectVariables.create(projectId, 'DEPLOY_TOKEN', 'abcdefgh12345', {
      masked: true,
      protected: true,
      environmentScope: 'production',
    });
    expect(created).toMatchObject({
      key: 'DEPLOY_TOKEN',
      value: 'abcdefgh12345',
      masked: true,
      protected: true,
      environment_scope: 'production',
      hidden: false,
    });
    await api.ProjectVariables.create(projectId, 'DEPLOY_TOKEN', 'staging-value', { environmentScope: 'staging' });

    const all = await api.ProjectVariables.all(projectId);
    expect(all.map((v) => v.environment_scope)).toEqual(['production', 'staging']);

    const staging = await api.ProjectVariables.show(projectId, 'DEPLOY_TOKEN', { filter: { environment_scope: 'staging' } });
    expect(staging.value).toBe('staging-value');

    const edited = await api.ProjectVariables.edit(projectId, 'DEPLOY_TOKEN', 'new-staging-value', {
      filter: { environment_scope: 'staging' },
      protected: true,
    });
    expect(edited).toMatchObject({ value: 'new-staging-value', protected: true, environment_scope: 'staging' });

    for (const ambiguous of [() => api.ProjectVariables.show(projectId, 'DEPLOY_TOKEN'), () => api.ProjectVariables.edit(projectId, 'DEPLOY_TOKEN', 'x')]) {
      expect(await failureOf(ambiguous())).toEqual({
        status: 409,
        description: "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'",
      });
    }
    await api.ProjectVariables.remove(projectId, 'DEPLOY_TOKEN', { filter: { environment_scope: 'staging' } });
    expect((await api.ProjectVariables.show(projectId, 'DEPLOY_TOKEN')).environment_scope).toBe('production');
  });

  it("reports a duplicate key with GitLab's body", async () => {
    await api.ProjectVariables.create(projectId, 'ONLY_ONCE', 'value');
    expect(await failureOf(api.ProjectVariables.create(projectId, 'ONLY_ONCE', 'value'))).toEqual({
      status: 400,
      description: JSON.stringify({ key: ['(ONLY_ONCE) has already been taken'] }),
    });
  });

  it('pages project variables and keeps them from developers', async () => {
    // DEPLOY_TOKEN (production) and ONLY_ONCE exist from the scenarios above
    await api.ProjectVariables.create(projectId, 'THIRD_KEY', 'three');
    const second = await api.ProjectVariables.all(projectId, { page: 2, perPage: 1, showExpanded: true });
    expect(second.data.map((v) => v.key)).toEqual(['ONLY_ONCE']);
    expect(second.paginationInfo).toEqual({ total: 3, next: 3, current: 2, previous: 1, perPage: 1, totalPages: 3 });
    expect((await api.ProjectVariables.all(projectId, { perPage: 2 })).map((v) => v.key)).toEqual(['DEPLOY_TOKEN', 'ONLY_ONCE', 'THIRD_KEY']);

    expect(await failureOf(dev.api.ProjectVariables.all(projectId))).toEqual({ status: 403, description: '403 Forbidden' });
    expect(await failureOf(api.ProjectVariables.show(projectId, 'NO_SUCH_KEY'))).toEqual({ status: 404, description: '404 Variable Not Found' });
  });

  it('manages group variables', async () => {
    await api.GroupVariables.create(groupId, 'GROUP_KEY', 'group-value', { variableType: 'file' });
    expect(await api.GroupVariables.show(groupId, 'GROUP_KEY')).toMatchObject({ variable_type: 'file', value: 'group-value' });
    const edited = await api.GroupVariables.edit(groupId, 'GROUP_KEY', 'changed-value', {
      masked: true,
      description: 'Deploy key',
      filter: { environment_scope: '*' },
    });
    expect(edited).toMatchObject({
      key: 'GROUP_KEY',
      value: 'changed-value',
      variable_type: 'file',
      masked: true,
      description: 'Deploy key',
      environment_scope: '*',
    });
    expect(await api.GroupVariables.all(groupId)).toEqual([edited]);
    expect(await failureOf(api.GroupVariables.create(groupId, 'SHORT_MASKED', 'short', { masked: true }))).toEqual({
      status: 400,
      description: JSON.stringify({ value: ['is invalid'] }),
    });
    expect(await failureOf(dev.api.GroupVariables.create(groupId, 'FROM_DEV', 'x'))).toEqual({ status: 403, description: '403 Forbidden' });

    await api.GroupVariables.remove(groupId, 'GROUP_KEY');
    expect(await api.GroupVariables.all(groupId)).toEqual([]);
    expect(await failureOf(api.GroupVariables.edit(groupId, 'GROUP_KEY', 'again'))).toEqual({ status: 404, description: '404 GroupVariable Not Found' });
  });

  it('enforces the instance variable limit set through the plan limits API', async () => {
    const limits = await api.ApplicationPlanLimits.show();
    expect(limits).toMatchObject({ ci_instance_level_variables: 25, pipeline_hierarchy_size: 1000 });
    const edited = await api.ApplicationPlanLimits.edit('default', { ciInstanceLevelVariables: 1 });
    expect(edited.ci_instance_level_variables).toBe(1);

    const variable = await api.InstanceLevelCICDVariables.create('INSTANCE_KEY', 'instance-value', { raw: true });
    expect(variable).toEqual({
      variable_type: 'env_var',
      key: 'INSTANCE_KEY',
      value: 'instance-value',
      protected: false,
      masked: false,
      raw: true,
      description: null,
    });
    expect(await failureOf(api.InstanceLevelCICDVariables.create('SECOND_KEY', 'x'))).toEqual({
      status: 400,
      description: JSON.stringify({ base: ['Maximum number of ci instance level variables (1) exceeded'] }),
    });

    expect((await api.InstanceLevelCICDVariables.edit('INSTANCE_KEY', 'changed')).value).toBe('changed');
    expect(await api.InstanceLevelCICDVariables.show('INSTANCE_KEY')).toEqual({ ...variable, value: 'changed' });
    expect(await api.InstanceLevelCICDVariables.all()).toHaveLength(1);
    expect(await failureOf(dev.api.InstanceLevelCICDVariables.all())).toEqual({ status: 403, description: '403 Forbidden' });
    // gitbeaker's InstanceLevelCICDVariables.remove sends a GET, so the delete goes through its requester.
    const removed = await api.requester.delete('admin/ci/variables/INSTANCE_KEY');
    expect(removed.status).toBe(204);
    expect(await api.InstanceLevelCICDVariables.all()).toEqual([]);
    expect(await failureOf(api.InstanceLevelCICDVariables.show('INSTANCE_KEY'))).toEqual({ status: 404, description: '404 InstanceVariable Not Found' });
  });

  it('keeps plan limits per plan, for administrators only', async () => {
    const premium = await api.ApplicationPlanLimits.edit('premium', { ciPipelineSchedules: 50 });
    expect(premium).toMatchObject({ ci_pipeline_schedules: 50, ci_instance_level_variables: 25 });
    expect(await api.ApplicationPlanLimits.show({ planName: 'premium' } as never)).toEqual(premium);
    expect(await api.ApplicationPlanLimits.show()).toMatchObject({ ci_pipeline_schedules: 10, ci_instance_level_variables: 1 });

    expect(await failureOf(api.ApplicationPlanLimits.edit('premium', { enforcementLimit: -1 } as never))).toEqual({
      status: 400,
      description: JSON.stringify({ enforcement_limit: ['must be greater than or equal to 0'] }),
    });
    expect(await failureOf(api.ApplicationPlanLimits.edit('platinum', { ciPipelineSchedules: 5 }))).toEqual({
      status: 400,
      description: 'plan_name does not have a valid value',
    });
    expect(await failureOf(dev.api.ApplicationPlanLimits.show())).toEqual({ status: 403, description: '403 Forbidden' });
  });
});

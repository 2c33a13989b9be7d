import { AccessLevel } from '@gitbeaker/rest';
import { corePlugin } from '@forgekit/plugin-core';
import { pipelineSchedulesPlugin } from '@forgekit/plugin-pipeline-schedules';
import { planLimitsPlugin } from '@forgekit/plugin-plan-limits';
import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, failureOf, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';

/**
 * A team runs a nightly pipeline: a developer schedules it in their own time zone
 * with a variable, a maintainer takes it over when the developer moves on, the team
 * plays it, and anyone on the team can see the pipelines it started. (The scheduler's
 * tick needs a clock, so it is tested in process, beside the plugin.)
 */
describe('pipeline schedules through @gitbeaker/rest', () => {
  let server: ListeningServer;
  let admin: Api;
  let maya: UserWithToken; // maintainer
  let dev: UserWithToken; // developer
  let project: { id: number; path_with_namespace: string };
  let scheduleId: number;

  beforeAll(async () => {
    server = await startListeningServer([corePlugin, planLimitsPlugin, pipelineSchedulesPlugin]);
    admin = clientFor(server, server.rootToken);
    [maya, dev] = await Promise.all(['maya', 'dev'].map((name) => createUserWithToken(admin, server, name)));
    const group = await admin.Groups.create('Nightly Team', 'nightly-team');
    project = await admin.Projects.create({ name: 'Service', path: 'service', namespaceId: group.id });
    await admin.GroupMembers.add(group.id, AccessLevel.MAINTAINER, { userId: maya.id });
    await admin.GroupMembers.add(group.id, AccessLevel.DEVELOPER, { userId: dev.id });
  });
  afterAll(() => server?.close());

  it('creates a schedule in a Rails time zone, with the ref expanded and next_run_at at 02:00 Pacific', async () => {
    const schedule = await dev.api.PipelineSchedules.create(project.id, 'Nightly', 'main', '0 2 * * *', { cronTimezone: 'Pacific Time (US & Canada)' });
    scheduleId = schedule.id;
    expect(schedule).toMatchObject({
      description: 'Nightly',
      ref: 'refs/heads/main',
      cron: '0 2 * * *',
      cron_timezone: 'Pacific Time (US & Canada)',
      active: true,
      last_pipeline: null,
    });
    expect(schedule.owner).toMatchObject({ id: dev.id, username: 'dev' });
    const pacific = new Intl.DateTimeFormat('en-GB', { timeZone: 'America/Los_Angeles', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
      new Date(schedule.next_run_at),
    );
    expect(pacific).toBe('02:00');
  });

  it("refuses an invalid cron with GitLab's model error", async () => {
    expect(await failureOf(dev.api.PipelineSchedules.create(project.id, 'Broken', 'main', 'every night'))).toEqual({
      status: 400,
      description: JSON.stringify({ cron: [' is invalid syntax'] }),
    });
  });

  it('keeps schedule variables, shown to the owner with the schedule', async () => {
    const variable = await dev.api.PipelineScheduleVariables.create(project.id, scheduleId, 'DEPLOY_ENV', 'staging', { variableType: 'env_var' });
    expect(variable).toEqual({ variable_type: 'env_var', key: 'DEPLOY_ENV', value: 'staging', raw: false });
    expect(await failureOf(dev.api.PipelineScheduleVariables.create(project.id, scheduleId, 'DEPLOY_ENV', 'again'))).toEqual({
      status: 400,
      description: JSON.stringify({ key: ['has already been taken'] }),
    });
    await dev.api.PipelineScheduleVariables.edit(project.id, scheduleId, 'DEPLOY_ENV', 'production');
    const shown = await dev.api.PipelineSchedules.show(project.id, scheduleId);
    expect(shown.variables).toEqual([{ variable_type: 'env_var', key: 'DEPLOY_ENV', value: 'production', raw: false }]);

    // The client has no method to read one schedule variable, so it goes through its requester.
    const variablePath = (key: string) => `projects/${project.id}/pipeline_schedules/${scheduleId}/variables/${key}`;
    expect((await dev.api.requester.get(variablePath('DEPLOY_ENV'))).body).toEqual(shown.variables![0]);
    expect(await failureOf(dev.api.requester.get(variablePath('MISSING')))).toEqual({ status: 404, description: '404 Pipeline Schedule Variable Not Found' });
  });

  it('lets only the owner edit, until a maintainer takes the schedule over', async () => {
    expect(await failureOf(maya.api.PipelineSchedules.edit(project.id, scheduleId, { description: 'Mine' }))).toEqual({
      status: 403,
      description: '403 Forbidden',
    });
    const taken = await maya.api.PipelineSchedules.takeOwnership(project.id, scheduleId);
    expect(taken.owner).toMatchObject({ username: 'maya' });
    const edited = await maya.api.PipelineSchedules.edit(project.id, scheduleId, { cron: '30 1 * * *', cronTimezone: 'Europe/Berlin' });
    expect(edited).toMatchObject({ cron: '30 1 * * *', cron_timezone: 'Europe/Berlin' });
    expect(await failureOf(dev.api.PipelineSchedules.edit(project.id, scheduleId, { active: false }))).toEqual({ status: 403, description: '403 Forbidden' });
  });

  it('starts a pipeline on each play, leaving the next run in the future', async () => {
    expect(await dev.api.PipelineSchedules.run(project.id, scheduleId)).toEqual({ message: '201 Created' });
    expect(await maya.api.PipelineSchedules.run(project.id, scheduleId)).toEqual({ message: '201 Created' });

    const pipelines = await dev.api.PipelineSchedules.allTriggeredPipelines(project.id, scheduleId);
    expect(pipelines.map((pipeline) => [pipeline.iid, pipeline.source, pipeline.ref, pipeline.status])).toEqual([
      [1, 'scheduled', 'main', 'created'],
      [2, 'scheduled', 'main', 'created'],
    ]);
    expect(pipelines[1]!.web_url).toBe(`${server.url}/${project.path_with_namespace}/-/pipelines/${pipelines[1]!.id}`);
    const shown = await dev.api.PipelineSchedules.show(project.id, scheduleId);
    expect(shown.last_pipeline).toMatchObject({ id: pipelines[1]!.id, status: 'created' });
    expect(Date.parse(shown.next_run_at)).toBeGreaterThan(Date.now());
  });

  it("filters, sorts and pages a schedule's pipelines", async () => {
    const list = (options: Record<string, unknown>) =>
      dev.api.PipelineSchedules.allTriggeredPipelines(project.id, scheduleId, options as never).then((pipelines) => pipelines.map((pipeline) => pipeline.iid));
    // Both pipelines are `created` until jobs run them; the filters by other statuses are tested in process.
    expect(await list({ sort: 'desc' })).toEqual([2, 1]);
    expect(await list({ status: 'created' })).toEqual([1, 2]);
    expect(await list({ status: 'success' })).toEqual([]);
    expect(await list({ scope: 'finished' })).toEqual([]);
    expect(await list({ scope: 'running' })).toEqual([]);
    expect(await list({ createdAfter: new Date(Date.now() + 60_000).toISOString() })).toEqual([]);
    expect(await list({ createdBefore: new Date(Date.now() + 60_000).toISOString() })).toEqual([1, 2]);

    const second = await dev.api.PipelineSchedules.allTriggeredPipelines(project.id, scheduleId, { page: 2, perPage: 1, showExpanded: true } as never);
    expect(second).toMatchObject({ data: [{ iid: 2 }], paginationInfo: { total: 2, current: 2, previous: 1, next: null, perPage: 1, totalPages: 2 } });
    expect(await failureOf(list({ status: 'exploded' }))).toEqual({ status: 400, description: 'status does not have a valid value' });
  });

  it('lists schedules by scope and deletes them', async () => {
    const paused = await dev.api.PipelineSchedules.create(project.id, 'Paused', 'refs/tags/v1.0', '@weekly', { active: false });
    expect((await dev.api.PipelineSchedules.all(project.id, { scope: 'active' })).map((schedule) => schedule.id)).toEqual([scheduleId]);
    expect((await dev.api.PipelineSchedules.all(project.id)).map((schedule) => schedule.id)).toEqual([paused.id, scheduleId]);
    expect(await maya.api.PipelineScheduleVariables.remove(project.id, scheduleId, 'DEPLOY_ENV')).toEqual({
      variable_type: 'env_var',
      key: 'DEPLOY_ENV',
      value: 'production',
      raw: false,
    });
    expect(await maya.api.PipelineSchedules.remove(project.id, paused.id, { showExpanded: true })).toMatchObject({ status: 200, data: { id: paused.id } });
    expect(await failureOf(dev.api.PipelineSchedules.show(project.id, paused.id))).toEqual({ status: 404, description: '404 Pipeline Schedule Not Found' });
  });
});

/** With repositories hosted, a schedule's short ref names the branch or tag that exists in the project. */
describe('pipeline schedule refs against a hosted repository through @gitbeaker/rest', () => {
  let server: ListeningServer;
  let admin: Api;
  let projectId: number;

  beforeAll(async () => {
    server = await startListeningServer([corePlugin, planLimitsPlugin, repositoriesPlugin, pipelineSchedulesPlugin]);
    admin = clientFor(server, server.rootToken);
    projectId = (await admin.Projects.create({ name: 'Releases', initializeWithReadme: true })).id;
    await admin.Tags.create(projectId, 'v2.0', 'main');
    await admin.Tags.create(projectId, 'main', 'main');
  });
  afterAll(() => server?.close());

  it('expands a tag name, and refuses a name that is both a branch and a tag or neither', async () => {
    const release = await admin.PipelineSchedules.create(projectId, 'Release', 'v2.0', '0 3 * * 1');
    expect(release.ref).toBe('refs/tags/v2.0');
    for (const ref of ['main', 'no-such-ref']) {
      expect(await failureOf(admin.PipelineSchedules.create(projectId, 'Nightly', ref, '0 2 * * *'))).toEqual({
        status: 400,
        description: JSON.stringify({ ref: ['is ambiguous'] }),
      });
    }
    const nightly = await admin.PipelineSchedules.create(projectId, 'Nightly', 'refs/heads/main', '0 2 * * *');
    await admin.PipelineSchedules.run(projectId, nightly.id);
    const [pipeline] = await admin.PipelineSchedules.allTriggeredPipelines(projectId, nightly.id);
    const head = await admin.Branches.show(projectId, 'main');
    expect(pipeline).toMatchObject({ ref: 'main', sha: head.commit.id, source: 'scheduled' });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { answer, createProject, insufficientScope, registerRunner, registrationToken, startRunnersApp, tokenWithScopes } from '../testing/runner-fixtures.js';
import { buildRunnerWorld, descriptions, type RunnerWorld } from '../testing/runner-world.js';

let app: TestApp;
let world: RunnerWorld;
beforeAll(async () => {
  app = await startRunnersApp();
  world = await buildRunnerWorld(app);
});
afterAll(() => app.close());

describe('GET /projects/:id/runners', () => {
  const path = () => `/api/v4/projects/${app.project.id}/runners`;

  it('lists the project’s runners, its groups’ runners and instance runners', async () => {
    const res = await app.get(path(), { token: 'maintainer' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total')).toBe('4');
    expect(descriptions(res.body)).toEqual(['Shared runner', 'Project runner', 'Two projects runner', 'Group runner A']);
    expect(descriptions((await app.get(`/api/v4/projects/${world.personalProject.id}/runners`, { token: 'owner' })).body)).toEqual([
      'Shared runner',
      'Two projects runner',
    ]);
  });

  it('accepts the full scope list and the filters', async () => {
    const list = async (query: Record<string, string>) => descriptions((await app.get(path(), { token: 'maintainer', query })).body);
    expect(await list({ scope: 'specific' })).toEqual(['Project runner', 'Two projects runner', 'Group runner A']);
    expect(await list({ type: 'project_type' })).toEqual(['Project runner', 'Two projects runner']);
    expect(await list({ status: 'paused' })).toEqual([]);
    expect(answer(await app.get(path(), { token: 'maintainer', query: { scope: 'unknown' } }))).toEqual({
      status: 400,
      body: { error: 'scope does not have a valid value' },
    });
  });

  it('leaves instance runners out when the project disables shared runners', async () => {
    expect((await app.put(`/api/v4/projects/${world.project2.id}`, { shared_runners_enabled: false }, { token: 'owner' })).status).toBe(200);
    expect(descriptions((await app.get(`/api/v4/projects/${world.project2.id}/runners`, { token: 'owner' })).body)).toEqual(['Group runner A']);
  });

  it('needs Maintainer access to the project', async () => {
    expect(answer(await app.get(path(), { token: 'developer' }))).toEqual({ status: 403, body: { message: '403 Forbidden' } });
    expect(answer(await app.get(path(), { token: 'nonMember' }))).toEqual({ status: 404, body: { message: '404 Project Not Found' } });
    expect(answer(await app.get(path(), { token: null }))).toEqual({ status: 401, body: { message: '401 Unauthorized' } });
    const manage = await tokenWithScopes(app, 'maintainer', ['manage_runner']);
    expect(answer(await app.get(path(), { token: manage }))).toEqual(insufficientScope('api read_api'));
  });
});

describe('GET /groups/:id/runners', () => {
  it('lists the group’s and its ancestors’ runners and instance runners', async () => {
    expect(descriptions((await app.get(`/api/v4/groups/${app.group.id}/runners`, { token: 'maintainer' })).body)).toEqual(['Shared runner', 'Group runner A']);
    const sub = await app.get(`/api/v4/groups/${world.subgroup.id}/runners`, { token: 'owner' });
    expect(descriptions(sub.body)).toEqual(['Shared runner', 'Group runner A', 'Group runner B']);
    expect(descriptions((await app.get(`/api/v4/groups/${app.group.id}/runners`, { token: 'owner', query: { type: 'group_type' } })).body)).toEqual([
      'Group runner A',
    ]);
    expect((await app.get(`/api/v4/groups/${app.group.id}/runners`, { token: 'owner', query: { type: 'project_type' } })).body).toEqual([]);
  });

  it('leaves instance runners out when the group disables shared runners', async () => {
    expect((await app.put(`/api/v4/groups/${world.subgroup.id}`, { shared_runners_setting: 'disabled_and_unoverridable' }, { token: 'owner' })).status).toBe(
      200,
    );
    expect(descriptions((await app.get(`/api/v4/groups/${world.subgroup.id}/runners`, { token: 'owner' })).body)).toEqual(['Group runner A', 'Group runner B']);
  });

  it('needs Maintainer access to the group', async () => {
    const path = `/api/v4/groups/${app.group.id}/runners`;
    expect(answer(await app.get(path, { token: 'developer' }))).toEqual({ status: 403, body: { message: '403 Forbidden' } });
    expect(answer(await app.get(path, { token: 'nonMember' }))).toEqual({ status: 404, body: { message: '404 Group Not Found' } });
    expect(answer(await app.get(path, { token: 'owner', query: { status: 'bogus' } }))).toEqual({
      status: 400,
      body: { error: 'status does not have a valid value' },
    });
  });
});

describe('POST /projects/:id/runners', () => {
  it('assigns a project runner and returns it', async () => {
    const runner = await registerRunner(app, await registrationToken(app, { project: app.project.id }), { description: 'to share' });
    const res = await app.post(`/api/v4/projects/${world.project2.id}/runners`, { runner_id: runner.id }, { token: 'maintainer' });
    expect(res).toMatchObject({ status: 201, body: { id: runner.id, description: 'to share', runner_type: 'project_type' } });
    expect(res.body).not.toHaveProperty('tag_list');
    const projects = (await app.get(`/api/v4/runners/${runner.id}`, { token: 'admin' })).body.projects.map((p: { id: number }) => p.id);
    expect(projects).toEqual([app.project.id, world.project2.id]);
  });

  it('refuses group, locked, instance and unmanaged runners', async () => {
    const post = (runnerId: number, token = 'maintainer') => app.post(`/api/v4/projects/${world.project2.id}/runners`, { runner_id: runnerId }, { token });
    expect(answer(await post(world.groupRunnerA.id))).toEqual({ status: 403, body: { message: '403 Forbidden - Runner is a group runner' } });
    const locked = await registerRunner(app, await registrationToken(app, { project: app.project.id }), { locked: true });
    expect(answer(await post(locked.id))).toEqual({ status: 403, body: { message: '403 Forbidden - Runner is locked' } });
    expect(answer(await post(world.shared.id))).toEqual({ status: 403, body: { message: '403 Forbidden - No access granted' } });
    expect(answer(await app.post(`/api/v4/projects/${world.personalProject.id}/runners`, { runner_id: world.shared.id }, { token: 'admin' }))).toEqual({
      status: 400,
      body: { message: 'Transitioning an instance runner to a project runner is not supported - runner_error' },
    });
    expect(answer(await post(999999))).toEqual({ status: 404, body: { message: '404 Not found' } });
  });

  it('refuses a runner already assigned to the project', async () => {
    expect(answer(await app.post(`/api/v4/projects/${app.project.id}/runners`, { runner_id: world.projectRunner.id }, { token: 'maintainer' }))).toEqual({
      status: 400,
      body: { message: 'Assign to Validation failed: Runner projects runner has already been taken - runner_error' },
    });
  });

  it('assigns a runner once when the same assignment is sent concurrently', async () => {
    const runner = await registerRunner(app, await registrationToken(app, { project: app.project.id }), { description: 'raced' });
    const path = `/api/v4/projects/${world.project2.id}/runners`;
    const results = await Promise.all([1, 2, 3].map(() => app.post(path, { runner_id: runner.id }, { token: 'maintainer' })));
    expect(results.map((res) => res.status).sort()).toEqual([201, 400, 400]);
    for (const res of results.filter((r) => r.status === 400)) {
      expect(res.body).toEqual({ message: 'Assign to Validation failed: Runner projects runner has already been taken - runner_error' });
    }
    const projects = (await app.get(`/api/v4/runners/${runner.id}`, { token: 'admin' })).body.projects.map((p: { id: number }) => p.id);
    expect(projects).toEqual([app.project.id, world.project2.id]);
  });

  it('enforces ci_registered_project_runners', async () => {
    const target = await createProject(app, 'limited-target');
    await registerRunner(app, await registrationToken(app, { project: target.id }));
    const other = await registerRunner(app, await registrationToken(app, { project: app.project.id }));
    await app.put('/api/v4/application/plan_limits', { plan_name: 'default', ci_registered_project_runners: 1 }, { token: 'admin' });
    try {
      expect(answer(await app.post(`/api/v4/projects/${target.id}/runners`, { runner_id: other.id }, { token: 'admin' }))).toEqual({
        status: 400,
        body: { message: 'Assign to Validation failed: Runner projects base Maximum number of ci registered project runners (1) exceeded - runner_error' },
      });
    } finally {
      await app.put('/api/v4/application/plan_limits', { plan_name: 'default', ci_registered_project_runners: 1000 }, { token: 'admin' });
    }
  });

  it('needs Maintainer access and a runner_id', async () => {
    expect(answer(await app.post(`/api/v4/projects/${world.project2.id}/runners`, { runner_id: world.projectRunner.id }, { token: 'developer' }))).toEqual({
      status: 403,
      body: { message: '403 Forbidden' },
    });
    expect(answer(await app.post(`/api/v4/projects/${world.project2.id}/runners`, {}, { token: 'maintainer' }))).toEqual({
      status: 400,
      body: { error: 'runner_id is missing' },
    });
    expect(
      answer(await app.post(`/api/v4/projects/${world.personalProject.id}/runners`, { runner_id: world.projectRunner.id }, { token: 'maintainer' })),
    ).toEqual({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
    const manage = await tokenWithScopes(app, 'maintainer', ['manage_runner']);
    expect(answer(await app.post(`/api/v4/projects/${world.project2.id}/runners`, { runner_id: world.projectRunner.id }, { token: manage }))).toEqual(
      insufficientScope('api'),
    );
  });
});

describe('DELETE /projects/:id/runners/:runner_id', () => {
  it('unassigns a runner from a project other than its owner', async () => {
    const runner = await registerRunner(app, await registrationToken(app, { project: app.project.id }));
    await app.post(`/api/v4/projects/${world.project2.id}/runners`, { runner_id: runner.id }, { token: 'maintainer' });
    const stale = new Date(Date.now() - 3_600_000).toUTCString();
    expect(
      answer(
        await app.request('DELETE', `/api/v4/projects/${world.project2.id}/runners/${runner.id}`, {
          token: 'maintainer',
          headers: { 'If-Unmodified-Since': stale },
        }),
      ),
    ).toEqual({ status: 412, body: { message: '412 Precondition Failed' } });
    const res = await app.delete(`/api/v4/projects/${world.project2.id}/runners/${runner.id}`, { token: 'maintainer' });
    expect(res.status).toBe(204);
    expect((await app.get(`/api/v4/runners/${runner.id}`, { token: 'admin' })).body.projects.map((p: { id: number }) => p.id)).toEqual([app.project.id]);
  });

  it('refuses to unassign a runner from its owner project', async () => {
    expect(answer(await app.delete(`/api/v4/projects/${app.project.id}/runners/${world.twoProjectsRunner.id}`, { token: 'owner' }))).toEqual({
      status: 403,
      body: { message: '403 Forbidden - You cannot unassign a runner from the owner project. Delete the runner instead' },
    });
  });

  it('answers 404 for runners not assigned to the project and 403 below Maintainer', async () => {
    expect(answer(await app.delete(`/api/v4/projects/${world.project2.id}/runners/${world.shared.id}`, { token: 'maintainer' }))).toEqual({
      status: 404,
      body: { message: '404 Runner Not Found' },
    });
    expect(answer(await app.delete(`/api/v4/projects/${world.project2.id}/runners/abc`, { token: 'maintainer' }))).toEqual({
      status: 400,
      body: { error: 'runner_id is invalid' },
    });
    expect(answer(await app.delete(`/api/v4/projects/${app.project.id}/runners/${world.projectRunner.id}`, { token: 'developer' }))).toEqual({
      status: 403,
      body: { message: '403 Forbidden' },
    });
  });
});

describe('when projects and groups are deleted', () => {
  it('hands a shared runner to its next project and deletes runners left without one', async () => {
    const project = await createProject(app, 'doomed');
    const token = await registrationToken(app, { project: project.id });
    const solo = await registerRunner(app, token);
    const shared = await registerRunner(app, token);
    await app.post(`/api/v4/projects/${world.project2.id}/runners`, { runner_id: shared.id }, { token: 'owner' });
    expect((await app.delete(`/api/v4/projects/${project.id}`, { token: 'owner' })).status).toBe(202);
    expect(answer(await app.get(`/api/v4/runners/${solo.id}`, { token: 'admin' }))).toEqual({ status: 404, body: { message: '404 Not found' } });
    const survivor = (await app.get(`/api/v4/runners/${shared.id}`, { token: 'admin' })).body;
    expect(survivor.projects.map((p: { id: number }) => p.id)).toEqual([world.project2.id]);
    // The next project now owns it: its Maintainers may delete it.
    expect((await app.delete(`/api/v4/runners/${shared.id}`, { token: 'maintainer' })).status).toBe(204);
    expect(answer(await app.post('/api/v4/runners', { token }))).toEqual({ status: 403, body: { message: '403 Forbidden' } });
  });

  it('deletes the runners of a deleted group and its subgroups', async () => {
    const parent = await app.post('/api/v4/groups', { name: 'Gone', path: 'gone' }, { token: 'owner' });
    const child = await app.post('/api/v4/groups', { name: 'Child', path: 'child', parent_id: parent.body.id }, { token: 'owner' });
    const token = await registrationToken(app, { group: child.body.id });
    const runner = await registerRunner(app, token);
    expect((await app.delete(`/api/v4/groups/${parent.body.id}`, { token: 'owner' })).status).toBe(202);
    expect(answer(await app.get(`/api/v4/runners/${runner.id}`, { token: 'admin' }))).toEqual({ status: 404, body: { message: '404 Not found' } });
    expect(answer(await app.post('/api/v4/runners', { token }))).toEqual({ status: 403, body: { message: '403 Forbidden' } });
  });
});

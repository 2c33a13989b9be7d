/** Every documented error of the iteration list and the cadence extension, with its exact status and body. */
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { iterationsPlugin } from '../plugin.js';
import { day, manualCadence, manualIteration } from '../testing/fixtures.js';

const UNAUTHORIZED = { message: '401 Unauthorized' };
const FORBIDDEN = { message: '403 Forbidden' };
const GROUP_NOT_FOUND = { message: '404 Group Not Found' };

describe('documented errors of iterations and cadences', () => {
  let app: TestApp;
  let groupList: string;
  let projectList: string;
  let cadences: string;
  let cadence: string;
  let iteration: string;

  const answer = async (request: Promise<{ status: number; body: unknown }>) => {
    const res = await request;
    return [res.status, res.body];
  };

  beforeAll(async () => {
    app = await createTestApp({ plugins: [iterationsPlugin] });
    groupList = `/api/v4/groups/${app.group.id}/iterations`;
    projectList = `/api/v4/projects/${app.project.id}/iterations`;
    cadences = `/api/v4/groups/${app.group.id}/iteration_cadences`;
    const cadenceId = await manualCadence(app, app.group.id, 'Errors');
    cadence = `${cadences}/${cadenceId}`;
    iteration = `${cadence}/iterations/${(await manualIteration(app, app.group.id, cadenceId, { title: 'One', start_date: day(1), due_date: day(3) })).id}`;
  });
  afterAll(() => app?.close());

  it('refuses invalid list filters with Grape’s 400 bodies, on the group and the project list', async () => {
    for (const list of [groupList, projectList]) {
      expect(await answer(app.get(list, { token: 'guest', query: { state: 'opened,closed' } }))).toEqual([400, { error: 'state does not have a valid value' }]);
      expect(await answer(app.get(list, { token: 'guest', query: { state: 'active' } }))).toEqual([400, { error: 'state does not have a valid value' }]);
      expect(await answer(app.get(list, { token: 'guest', query: { in: 'title,description' } }))).toEqual([400, { error: 'in does not have a valid value' }]);
      expect(await answer(app.get(list, { token: 'guest', query: { include_ancestors: 'perhaps' } }))).toEqual([
        400,
        { error: 'include_ancestors is invalid' },
      ]);
      expect(await answer(app.get(list, { token: 'guest', query: { include_descendants: 'perhaps' } }))).toEqual([
        400,
        { error: 'include_descendants is invalid' },
      ]);
      expect(await answer(app.get(list, { token: 'guest', query: { updated_before: 'yesterday' } }))).toEqual([400, { error: 'updated_before is invalid' }]);
      expect(await answer(app.get(list, { token: 'guest', query: { updated_after: 'soon', state: 'none' } }))).toEqual([
        400,
        { error: 'state does not have a valid value, updated_after is invalid' },
      ]);
    }
  });

  it('validates the filters before looking for the group or project, as GitLab does, then answers 404 for one the caller cannot see', async () => {
    for (const token of ['nonMember', null] as const) {
      expect(await answer(app.get(groupList, { token, query: { state: 'bogus' } }))).toEqual([400, { error: 'state does not have a valid value' }]);
      expect(await answer(app.get(projectList, { token, query: { state: 'bogus' } }))).toEqual([400, { error: 'state does not have a valid value' }]);
      expect(await answer(app.get(groupList, { token, query: { state: 'closed' } }))).toEqual([404, GROUP_NOT_FOUND]);
      expect(await answer(app.get(projectList, { token, query: { state: 'closed' } }))).toEqual([404, { message: '404 Project Not Found' }]);
    }
    expect(await answer(app.get('/api/v4/groups/no-such-group/iterations', { token: 'admin' }))).toEqual([404, GROUP_NOT_FOUND]);
    expect(await answer(app.get('/api/v4/projects/999999/iterations', { token: 'admin' }))).toEqual([404, { message: '404 Project Not Found' }]);
  });

  it('lets every member read, guests included', async () => {
    for (const token of ['guest', 'reporter', 'developer', 'maintainer', 'owner', 'admin'] as const) {
      expect((await app.get(groupList, { token })).status).toBe(200);
      expect((await app.get(projectList, { token })).status).toBe(200);
      expect((await app.get(cadence, { token })).status).toBe(200);
    }
  });

  it('answers 401 to anonymous writes of the cadence extension', async () => {
    expect(await answer(app.post(cadences, { title: 'A', automatic: false }, { token: null }))).toEqual([401, UNAUTHORIZED]);
    expect(await answer(app.put(cadence, { title: 'A' }, { token: null }))).toEqual([401, UNAUTHORIZED]);
    expect(await answer(app.delete(cadence, { token: null }))).toEqual([401, UNAUTHORIZED]);
    expect(await answer(app.post(`${cadence}/iterations`, { start_date: day(10), due_date: day(11) }, { token: null }))).toEqual([401, UNAUTHORIZED]);
    expect(await answer(app.put(iteration, { title: 'A' }, { token: null }))).toEqual([401, UNAUTHORIZED]);
    expect(await answer(app.delete(iteration, { token: null }))).toEqual([401, UNAUTHORIZED]);
  });

  it('answers 403 to guests and 404 to non-members on every write, before validating params', async () => {
    const writes = (token: 'guest' | 'nonMember') => [
      app.post(cadences, { automatic: 'maybe' }, { token }),
      app.put(cadence, { duration_in_weeks: 'two' }, { token }),
      app.delete(cadence, { token }),
      app.post(`${cadence}/iterations`, {}, { token }),
      app.put(iteration, { start_date: 'soon' }, { token }),
      app.delete(iteration, { token }),
    ];
    for (const request of writes('guest')) expect(await answer(request)).toEqual([403, FORBIDDEN]);
    for (const request of writes('nonMember')) expect(await answer(request)).toEqual([404, GROUP_NOT_FOUND]);
  });

  it('answers anonymous reads of a private group’s cadences with 404', async () => {
    expect(await answer(app.get(cadences, { token: null }))).toEqual([404, GROUP_NOT_FOUND]);
    expect(await answer(app.get(cadence, { token: null }))).toEqual([404, GROUP_NOT_FOUND]);
    expect(await answer(app.get(cadence, { token: 'nonMember' }))).toEqual([404, GROUP_NOT_FOUND]);
  });

  it('refuses invalid cadence params with Grape’s and the model’s bodies', async () => {
    expect(await answer(app.post(cadences, { title: 'T', automatic: 'maybe' }, { token: 'owner' }))).toEqual([400, { error: 'automatic is invalid' }]);
    expect(await answer(app.post(cadences, { title: 'T', roll_over: 'often' }, { token: 'owner' }))).toEqual([400, { error: 'roll_over is invalid' }]);
    expect(await answer(app.put(cadence, { iterations_in_advance: 'many' }, { token: 'owner' }))).toEqual([400, { error: 'iterations_in_advance is invalid' }]);
    expect(await answer(app.put(cadence, { title: ' ' }, { token: 'owner' }))).toEqual([400, { message: { title: ["can't be blank"] } }]);
    expect(await answer(app.put(cadence, { description: 'd'.repeat(5001) }, { token: 'owner' }))).toEqual([
      400,
      { message: { description: ['is too long (maximum is 5000 characters)'] } },
    ]);
  });

  it('answers 404 for iterations of an unknown cadence, and for unknown iterations', async () => {
    const missing = { message: '404 Iteration Cadence Not Found' };
    expect(await answer(app.post(`${cadences}/999999/iterations`, { start_date: day(10), due_date: day(11) }, { token: 'owner' }))).toEqual([404, missing]);
    expect(await answer(app.put(`${cadences}/999999/iterations/1`, { title: 'x' }, { token: 'owner' }))).toEqual([404, missing]);
    expect(await answer(app.delete(`${cadences}/abc/iterations/1`, { token: 'owner' }))).toEqual([404, missing]);
    expect(await answer(app.put(`${cadence}/iterations/abc`, { title: 'x' }, { token: 'owner' }))).toEqual([404, { message: '404 Iteration Not Found' }]);
  });
});

import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PipelineScheduleVariableEntity } from '../entities/pipeline-schedule-variable.js';
import { createSchedule, schedulePlugins, schedulesPath, setScheduleLimit } from '../testing/schedule-fixtures.js';

let app: TestApp;
let scheduleId: number;
let variablesPath: string;

beforeAll(async () => {
  app = await createTestApp({ plugins: schedulePlugins() });
  await setScheduleLimit(app, 0);
  scheduleId = (await createSchedule(app, 'developer')).id;
  variablesPath = `${schedulesPath(app)}/${scheduleId}/variables`;
});
afterAll(() => app?.close());

describe('POST .../variables', () => {
  it('creates a variable for the schedule owner, env_var by default', async () => {
    const res = await app.post(variablesPath, { key: 'DEPLOY_TARGET', value: 'staging' }, { token: 'developer' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ variable_type: 'env_var', key: 'DEPLOY_TARGET', value: 'staging', raw: false });
    const file = await app.post(variablesPath, { key: ' CONFIG ', value: 'a=b', variable_type: 'file' }, { token: 'developer' });
    expect(file.body).toEqual({ variable_type: 'file', key: 'CONFIG', value: 'a=b', raw: false });
  });

  it('shows variables in the schedule details, oldest first', async () => {
    const details = await app.get(`${schedulesPath(app)}/${scheduleId}`, { token: 'maintainer' });
    expect(details.body.variables.map((variable: { key: string }) => variable.key)).toEqual(['DEPLOY_TARGET', 'CONFIG']);
  });

  it("answers GitLab's errors for missing params, bad types, bad keys and taken keys", async () => {
    expect(await app.post(variablesPath, {}, { token: 'developer' })).toMatchObject({ status: 400, body: { error: 'key is missing, value is missing' } });
    expect(await app.post(variablesPath, { key: 'A', value: 'b', variable_type: 'secret' }, { token: 'developer' })).toMatchObject({
      status: 400,
      body: { error: 'variable_type does not have a valid value' },
    });
    expect(await app.post(variablesPath, { key: '!?!?', value: 'x' }, { token: 'developer' })).toMatchObject({
      status: 400,
      body: { message: { key: ["can contain only letters, digits and '_'."] } },
    });
    expect(await app.post(variablesPath, { key: 'K'.repeat(256), value: 'x' }, { token: 'developer' })).toMatchObject({
      status: 400,
      body: { message: { key: ['is too long (maximum is 255 characters)'] } },
    });
    expect(await app.post(variablesPath, { key: '', value: 'x' }, { token: 'developer' })).toMatchObject({
      status: 400,
      body: { message: { key: ["can't be blank", "can contain only letters, digits and '_'."] } },
    });
    expect(await app.post(variablesPath, { key: 'DEPLOY_TARGET', value: 'again' }, { token: 'developer' })).toMatchObject({
      status: 400,
      body: { message: { key: ['has already been taken'] } },
    });
  });

  it('keeps one variable per key when creates race', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => app.post(variablesPath, { key: 'RACED', value: `v${i}` }, { token: 'developer' })));
    expect(results.filter((res) => res.status === 201)).toHaveLength(1);
    for (const refused of results.filter((res) => res.status !== 201)) {
      expect(refused).toMatchObject({ status: 400, body: { message: { key: ['has already been taken'] } } });
    }
    await app.delete(`${variablesPath}/RACED`, { token: 'developer' });
  });

  it('is for the schedule owner: 403 for Maintainers who do not own it and for Reporters, 404 for outsiders', async () => {
    expect(await app.post(variablesPath, { key: 'X', value: 'y' }, { token: 'maintainer' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await app.post(variablesPath, { key: 'X', value: 'y' }, { token: 'reporter' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await app.post(variablesPath, { key: 'X', value: 'y' }, { token: 'nonMember' })).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
    expect(await app.post(`${schedulesPath(app)}/999999/variables`, { key: 'X', value: 'y' }, { token: 'developer' })).toMatchObject({
      status: 404,
      body: { message: '404 Pipeline Schedule Not Found' },
    });
    expect(await app.post(variablesPath, { key: 'X', value: 'y' })).toMatchObject({ status: 401 });
  });
});

describe('GET .../variables/:key', () => {
  it('shows a variable to the owner and to Maintainers', async () => {
    for (const token of ['developer', 'maintainer']) {
      expect(await app.get(`${variablesPath}/DEPLOY_TARGET`, { token })).toMatchObject({
        status: 200,
        body: { variable_type: 'env_var', key: 'DEPLOY_TARGET', value: 'staging', raw: false },
      });
    }
  });

  it('answers 403 to readers who may not see variables and 404 for a missing key', async () => {
    expect(await app.get(`${variablesPath}/DEPLOY_TARGET`, { token: 'reporter' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await app.get(`${variablesPath}/NOPE`, { token: 'developer' })).toMatchObject({
      status: 404,
      body: { message: '404 Pipeline Schedule Variable Not Found' },
    });
  });
});

describe('PUT .../variables/:key', () => {
  it('changes the value and the type; both are optional', async () => {
    const res = await app.put(`${variablesPath}/DEPLOY_TARGET`, { value: 'production', variable_type: 'file' }, { token: 'developer' });
    expect(res).toMatchObject({ status: 200, body: { variable_type: 'file', key: 'DEPLOY_TARGET', value: 'production', raw: false } });
    expect((await app.put(`${variablesPath}/DEPLOY_TARGET`, {}, { token: 'developer' })).body).toEqual({
      variable_type: 'file',
      key: 'DEPLOY_TARGET',
      value: 'production',
      raw: false,
    });
  });

  it('is for the owner only and answers 404 for a missing key', async () => {
    expect(await app.put(`${variablesPath}/DEPLOY_TARGET`, { value: 'x' }, { token: 'maintainer' })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    });
    expect(await app.put(`${variablesPath}/NOPE`, { value: 'x' }, { token: 'developer' })).toMatchObject({
      status: 404,
      body: { message: '404 Pipeline Schedule Variable Not Found' },
    });
    expect(await app.put(`${variablesPath}/DEPLOY_TARGET`, { variable_type: 'x' }, { token: 'developer' })).toMatchObject({
      status: 400,
      body: { error: 'variable_type does not have a valid value' },
    });
  });
});

describe('DELETE .../variables/:key', () => {
  it("answers 202 with the deleted variable; Maintainers may delete the owner's variables", async () => {
    const res = await app.delete(`${variablesPath}/CONFIG`, { token: 'maintainer' });
    expect(res).toMatchObject({ status: 202, body: { variable_type: 'file', key: 'CONFIG', value: 'a=b', raw: false } });
    expect((await app.get(`${variablesPath}/CONFIG`, { token: 'developer' })).status).toBe(404);
  });

  it("refuses a Developer deleting another owner's variable, and missing keys", async () => {
    const other = await createSchedule(app, 'maintainer');
    const otherPath = `${schedulesPath(app)}/${other.id}/variables`;
    expect((await app.post(otherPath, { key: 'K', value: 'v' }, { token: 'maintainer' })).status).toBe(201);
    expect(await app.delete(`${otherPath}/K`, { token: 'developer' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await app.delete(`${otherPath}/NOPE`, { token: 'maintainer' })).toMatchObject({
      status: 404,
      body: { message: '404 Pipeline Schedule Variable Not Found' },
    });
  });

  it('removes the variables with their schedule', async () => {
    const schedule = await createSchedule(app, 'developer');
    await app.post(`${schedulesPath(app)}/${schedule.id}/variables`, { key: 'GONE', value: 'soon' }, { token: 'developer' });
    expect((await app.delete(`${schedulesPath(app)}/${schedule.id}`, { token: 'developer' })).status).toBe(200);
    const { database } = app.kernel;
    expect(await database.rows(database.from(PipelineScheduleVariableEntity).where('pipelineScheduleId', schedule.id))).toEqual([]);
  });
});

import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchedule, NIGHTLY, newProject, projectSchedulesPath, schedulePlugins, schedulesPath, setScheduleLimit } from '../testing/schedule-fixtures.js';

let app: TestApp;
let path: string;
const one = (id: number | string) => `${path}/${id}`;

beforeAll(async () => {
  app = await createTestApp({ plugins: schedulePlugins() });
  path = schedulesPath(app);
  // Many schedules share the seeded project here; the limit has its own test.
  await setScheduleLimit(app, 0);
});
afterAll(() => app?.close());

/** The hour and minute of an instant on the wall clock of `zone`. */
function wallClock(iso: string, zone: string) {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(iso));
  return `${parts.find((part) => part.type === 'hour')!.value}:${parts.find((part) => part.type === 'minute')!.value}`;
}

/** `next_run_at` must be the first matching minute after creation: later than now, and within the cron's period. */
function expectNextRunWithin(iso: string, before: number, periodMs: number) {
  const at = Date.parse(iso);
  expect(at).toBeGreaterThan(before);
  expect(at).toBeLessThanOrEqual(before + periodMs);
}

const DAY = 24 * 60 * 60 * 1000;

describe('POST /projects/:id/pipeline_schedules', () => {
  it('creates a schedule owned by the caller, with the short ref expanded and UTC by default', async () => {
    const before = Date.now();
    const res = await app.post(
      path,
      {
        ...NIGHTLY,
        inputs: [
          { name: 'deploy', value: 'blue-green' },
          { name: 'targets', value: [1, 2] },
          { name: 'dry_run', value: false },
        ],
      },
      { token: 'developer' },
    );
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual([
      'id',
      'description',
      'ref',
      'cron',
      'cron_timezone',
      'next_run_at',
      'active',
      'created_at',
      'updated_at',
      'owner',
      'inputs',
      'last_pipeline',
    ]);
    expect(res.body).toMatchObject({
      description: 'Nightly build',
      ref: 'refs/heads/main',
      cron: '0 1 * * *',
      cron_timezone: 'UTC',
      active: true,
      last_pipeline: null,
      inputs: [
        { name: 'deploy', value: 'blue-green' },
        { name: 'targets', value: [1, 2] },
        { name: 'dry_run', value: false },
      ],
    });
    expect(res.body.owner).toEqual({
      id: app.users.developer.id,
      username: 'developer',
      public_email: null,
      name: 'Developer User',
      state: 'active',
      locked: false,
      avatar_url: null,
      web_url: 'http://localhost/developer',
    });
    expect(res.body.next_run_at).toMatch(/T01:00:00\.000Z$/);
    expectNextRunWithin(res.body.next_run_at, before, DAY);
  });

  it('keeps full refs, strips the cron and reads form bodies', async () => {
    const res = await app.post(
      path,
      { description: 'Tags', ref: 'refs/tags/v1.0', cron: '  */30 * * * * ', active: 'false' },
      { token: 'maintainer', as: 'form' },
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ ref: 'refs/tags/v1.0', cron: '*/30 * * * *', active: false });
    expect(res.body.next_run_at).toMatch(/:(00|30):00\.000Z$/);
  });

  it('computes next_run_at in the schedule zone and keeps the zone as sent, Rails or IANA', async () => {
    const rails = await app.post(path, { ...NIGHTLY, cron: '0 4 * * *', cron_timezone: 'Eastern Time (US & Canada)' }, { token: 'developer' });
    const iana = await app.post(path, { ...NIGHTLY, cron: '0 4 * * *', cron_timezone: 'America/New_York' }, { token: 'developer' });
    expect(rails.status).toBe(201);
    expect(rails.body.cron_timezone).toBe('Eastern Time (US & Canada)');
    expect(iana.body.cron_timezone).toBe('America/New_York');
    expect(wallClock(rails.body.next_run_at, 'America/New_York')).toBe('04:00');
    expect(rails.body.next_run_at).toBe(iana.body.next_run_at);
  });

  it('answers Grape errors for missing and blank params', async () => {
    expect(await app.post(path, {}, { token: 'developer' })).toMatchObject({
      status: 400,
      body: { error: 'description is missing, ref is missing, ref is empty, cron is missing' },
    });
    expect(await app.post(path, { ...NIGHTLY, ref: '' }, { token: 'developer' })).toMatchObject({ status: 400, body: { error: 'ref is empty' } });
    expect(await app.post(path, { ...NIGHTLY, active: 'maybe' }, { token: 'developer' })).toMatchObject({ status: 400, body: { error: 'active is invalid' } });
  });

  it("answers GitLab's model errors for the cron, its zone and the description", async () => {
    expect(await app.post(path, { ...NIGHTLY, cron: 'invalid-cron' }, { token: 'developer' })).toMatchObject({
      status: 400,
      body: { message: { cron: [' is invalid syntax'] } },
    });
    expect(await app.post(path, { ...NIGHTLY, cron_timezone: 'Mars/Olympus' }, { token: 'developer' })).toMatchObject({
      status: 400,
      body: { message: { cron_timezone: [' is invalid syntax'] } },
    });
    const blank = await app.post(path, { description: ' ', ref: 'main', cron: '', cron_timezone: '' }, { token: 'developer' });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({
      message: { cron: [' is invalid syntax', "can't be blank"], cron_timezone: [' is invalid syntax', "can't be blank"], description: ["can't be blank"] },
    });
  });

  it('refuses a ref that cannot be a branch as ambiguous, before any other rule', async () => {
    const res = await app.post(path, { ...NIGHTLY, ref: 'no such..ref', cron: 'invalid-cron' }, { token: 'developer' });
    expect(res).toMatchObject({ status: 400, body: { message: { ref: ['is ambiguous'] } } });
  });

  it('checks inputs: required fields, value types, unique names and their number', async () => {
    expect(await app.post(path, { ...NIGHTLY, inputs: [{ name: 'a' }] }, { token: 'developer' })).toMatchObject({
      status: 400,
      body: { error: 'inputs[0][value] is missing' },
    });
    expect(await app.post(path, { ...NIGHTLY, inputs: [{ value: 'x' }] }, { token: 'developer' })).toMatchObject({
      status: 400,
      body: { error: 'inputs[0][name] is missing' },
    });
    expect(await app.post(path, { ...NIGHTLY, inputs: [{ name: 'a', value: { nested: true } }] }, { token: 'developer' })).toMatchObject({
      status: 400,
      body: { error: 'inputs[0][value] is invalid' },
    });
    expect(await app.post(path, { ...NIGHTLY, inputs: 'a' }, { token: 'developer' })).toMatchObject({ status: 400, body: { error: 'inputs is invalid' } });
    const duplicates = await app.post(
      path,
      {
        ...NIGHTLY,
        inputs: [
          { name: 'a', value: 1 },
          { name: 'b', value: 2 },
          { name: 'a', value: 3 },
        ],
      },
      { token: 'developer' },
    );
    expect(duplicates).toMatchObject({ status: 400, body: { message: { inputs: ['have duplicate values (a)'] } } });
    const many = Array.from({ length: 21 }, (_, index) => ({ name: `input_${index}`, value: index }));
    expect(await app.post(path, { ...NIGHTLY, inputs: many }, { token: 'developer' })).toMatchObject({
      status: 400,
      body: { message: { inputs: ['exceeds the limit of 20.'] } },
    });
    expect(await app.post(path, { ...NIGHTLY, inputs: [{ name: '', value: 1 }] }, { token: 'developer' })).toMatchObject({
      status: 400,
      body: { message: { 'inputs.name': ["can't be blank"] } },
    });
  });

  it('needs Developer: 403 for Reporters, 404 for non-members, 401 without a token', async () => {
    expect(await app.post(path, NIGHTLY, { token: 'reporter' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await app.post(path, NIGHTLY, { token: 'nonMember' })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await app.post(path, NIGHTLY)).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
  });

  it('enforces the ci_pipeline_schedules plan limit per project; 0 means no limit', async () => {
    const projectId = await newProject(app, 'limited');
    const limited = projectSchedulesPath(projectId);
    await setScheduleLimit(app, 2);
    try {
      await createSchedule(app, 'developer', {}, projectId);
      await createSchedule(app, 'developer', {}, projectId);
      expect(await app.post(limited, NIGHTLY, { token: 'developer' })).toMatchObject({
        status: 400,
        body: { message: { base: ['Maximum number of ci pipeline schedules (2) exceeded'] } },
      });
      const both = await app.post(limited, { ...NIGHTLY, cron: 'nope' }, { token: 'developer' });
      expect(both.body).toEqual({ message: { base: ['Maximum number of ci pipeline schedules (2) exceeded'], cron: [' is invalid syntax'] } });
      await setScheduleLimit(app, 0);
      expect((await app.post(limited, NIGHTLY, { token: 'developer' })).status).toBe(201);
    } finally {
      await setScheduleLimit(app, 0);
    }
  });

  it('holds the plan limit when creates run in parallel', async () => {
    const projectId = await newProject(app, 'racing-schedules');
    const racing = projectSchedulesPath(projectId);
    await setScheduleLimit(app, 3);
    try {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => app.post(racing, { ...NIGHTLY, description: `race ${i}` }, { token: 'developer' })),
      );
      expect(results.filter((res) => res.status === 201)).toHaveLength(3);
      for (const refused of results.filter((res) => res.status !== 201)) {
        expect(refused).toMatchObject({ status: 400, body: { message: { base: ['Maximum number of ci pipeline schedules (3) exceeded'] } } });
      }
      expect((await app.get(racing, { token: 'developer' })).headers.get('x-total')).toBe('3');
    } finally {
      await setScheduleLimit(app, 0);
    }
  });
});

describe('GET /projects/:id/pipeline_schedules', () => {
  let projectId: number;
  let ids: number[];

  beforeAll(async () => {
    projectId = await newProject(app, 'listing');
    ids = [];
    for (const active of [true, false, true]) ids.push((await createSchedule(app, 'developer', { active }, projectId)).id);
  });

  it('lists schedules newest first, paginated, without details', async () => {
    const res = await app.get(projectSchedulesPath(projectId), { token: 'reporter', query: { per_page: 2 } });
    expect(res.status).toBe(200);
    expect(res.body.map((item: { id: number }) => item.id)).toEqual([ids[2], ids[1]]);
    expect(res.headers.get('x-total')).toBe('3');
    expect(res.headers.get('x-next-page')).toBe('2');
    expect(Object.keys(res.body[0])).toEqual([
      'id',
      'description',
      'ref',
      'cron',
      'cron_timezone',
      'next_run_at',
      'active',
      'created_at',
      'updated_at',
      'owner',
      'inputs',
    ]);
  });

  it('filters by scope', async () => {
    const active = await app.get(projectSchedulesPath(projectId), { token: 'developer', query: { scope: 'active' } });
    expect(active.body.map((item: { id: number }) => item.id)).toEqual([ids[2], ids[0]]);
    const inactive = await app.get(projectSchedulesPath(projectId), { token: 'developer', query: { scope: 'inactive' } });
    expect(inactive.body.map((item: { id: number }) => item.id)).toEqual([ids[1]]);
    expect(await app.get(projectSchedulesPath(projectId), { token: 'developer', query: { scope: 'all' } })).toMatchObject({
      status: 400,
      body: { error: 'scope does not have a valid value' },
    });
  });

  it('lets Guests read while pipelines are public, and refuses them with 403 otherwise', async () => {
    expect((await app.get(projectSchedulesPath(projectId), { token: 'guest' })).status).toBe(200);
    const hidden = await newProject(app, 'hidden-pipelines', { public_jobs: false });
    expect(await app.get(projectSchedulesPath(hidden), { token: 'guest' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect((await app.get(projectSchedulesPath(hidden), { token: 'reporter' })).status).toBe(200);
  });

  it('is closed to everyone when CI/CD is disabled', async () => {
    const disabled = await newProject(app, 'no-ci', { builds_access_level: 'disabled' });
    expect(await app.get(projectSchedulesPath(disabled), { token: 'maintainer' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await app.post(projectSchedulesPath(disabled), NIGHTLY, { token: 'maintainer' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
  });

  it('keeps the schedules of an archived project readable but unchangeable', async () => {
    const archived = await newProject(app, 'archived');
    const schedule = await createSchedule(app, 'developer', {}, archived);
    expect((await app.post(`/api/v4/projects/${archived}/archive`, undefined, { token: 'owner' })).status).toBe(201);
    const base = projectSchedulesPath(archived);
    expect((await app.get(`${base}/${schedule.id}`, { token: 'developer' })).status).toBe(200);
    for (const [method, url, token] of [
      ['POST', base, 'developer'],
      ['PUT', `${base}/${schedule.id}`, 'developer'],
      ['PUT', `${base}/${schedule.id}`, 'admin'],
      ['POST', `${base}/${schedule.id}/play`, 'developer'],
      ['DELETE', `${base}/${schedule.id}`, 'maintainer'],
    ] as const) {
      expect(await app.request(method, url, { token, body: method === 'DELETE' ? undefined : NIGHTLY }), `${method} ${url}`).toMatchObject({
        status: 403,
        body: { message: '403 Forbidden' },
      });
    }
  });

  it('answers 404 to non-members of a private project and 401 without a token', async () => {
    expect(await app.get(projectSchedulesPath(projectId), { token: 'nonMember' })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await app.get(projectSchedulesPath(projectId))).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
  });
});

describe('GET /projects/:id/pipeline_schedules/:pipeline_schedule_id', () => {
  let id: number;
  beforeAll(async () => {
    id = (await createSchedule(app, 'developer')).id;
  });

  it('answers 404 for an id no schedule can have, on every database', async () => {
    for (const id of ['2147483648', '9007199254740991']) {
      for (const suffix of ['', '/play', '/take_ownership', '/variables']) {
        const method = suffix === '' ? 'GET' : 'POST';
        const res = await app.request(method, `${one(id)}${suffix}`, {
          token: 'maintainer',
          body: suffix === '/variables' ? { key: 'K', value: 'v' } : undefined,
        });
        expect({ id, suffix, status: res.status, body: res.body }).toEqual({ id, suffix, status: 404, body: { message: '404 Pipeline Schedule Not Found' } });
      }
    }
  });

  it('shows details with variables to the owner and to Maintainers', async () => {
    for (const token of ['developer', 'maintainer', 'admin']) {
      const res = await app.get(one(id), { token });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual([
        'id',
        'description',
        'ref',
        'cron',
        'cron_timezone',
        'next_run_at',
        'active',
        'created_at',
        'updated_at',
        'owner',
        'inputs',
        'last_pipeline',
        'variables',
      ]);
      expect(res.body).toMatchObject({ id, last_pipeline: null, variables: [] });
    }
  });

  it('leaves variables out for readers who may not see them', async () => {
    const res = await app.get(one(id), { token: 'reporter' });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('variables');
    expect(res.body.last_pipeline).toBeNull();
  });

  it('answers 404 for missing or unreadable schedules and 400 for a non-integer id', async () => {
    expect(await app.get(one(999999), { token: 'developer' })).toMatchObject({ status: 404, body: { message: '404 Pipeline Schedule Not Found' } });
    expect(await app.get(one(-5), { token: 'developer' })).toMatchObject({ status: 404, body: { message: '404 Pipeline Schedule Not Found' } });
    expect(await app.get(one('abc'), { token: 'developer' })).toMatchObject({ status: 400, body: { error: 'pipeline_schedule_id is invalid' } });
    const other = await newProject(app, 'other-project');
    expect(await app.get(`${projectSchedulesPath(other)}/${id}`, { token: 'developer' })).toMatchObject({
      status: 404,
      body: { message: '404 Pipeline Schedule Not Found' },
    });
    expect(await app.get(one(id), { token: 'nonMember' })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
  });
});

describe('PUT /projects/:id/pipeline_schedules/:pipeline_schedule_id', () => {
  it('lets the owner edit and recomputes next_run_at', async () => {
    const schedule = await createSchedule(app, 'developer');
    const res = await app.put(
      one(schedule.id),
      { cron: '30 6 * * *', cron_timezone: 'Tokyo', ref: 'release', description: 'Morning', active: false },
      { token: 'developer' },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      cron: '30 6 * * *',
      cron_timezone: 'Tokyo',
      ref: 'refs/heads/release',
      description: 'Morning',
      active: false,
      last_pipeline: null,
    });
    expect(res.body).not.toHaveProperty('variables');
    expect(wallClock(res.body.next_run_at, 'Asia/Tokyo')).toBe('06:30');
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(schedule.updated_at as string));
  });

  it('changes inputs by name: replace, add, and remove with destroy or _destroy', async () => {
    const schedule = await createSchedule(app, 'developer', {
      inputs: [
        { name: 'a', value: 1 },
        { name: 'b', value: 'two' },
        { name: 'c', value: true },
      ],
    });
    const res = await app.put(
      one(schedule.id),
      {
        inputs: [
          { name: 'a', value: 'one' },
          { name: 'b', destroy: true },
          { name: 'c', _destroy: 'true' },
          { name: 'd', value: ['x'] },
          { name: 'missing', destroy: true },
        ],
      },
      { token: 'developer' },
    );
    expect(res.status).toBe(200);
    expect(res.body.inputs).toEqual([
      { name: 'a', value: 'one' },
      { name: 'd', value: ['x'] },
    ]);
    expect((await app.put(one(schedule.id), { description: 'Only this' }, { token: 'developer' })).body.inputs).toEqual([
      { name: 'a', value: 'one' },
      { name: 'd', value: ['x'] },
    ]);
    expect(await app.put(one(schedule.id), { inputs: [{ name: 'a', destroy: false }] }, { token: 'developer' })).toMatchObject({
      status: 400,
      body: { error: 'inputs[0][value] is missing' },
    });
  });

  it('answers the same model errors as create', async () => {
    const schedule = await createSchedule(app, 'developer');
    expect(await app.put(one(schedule.id), { cron: 'invalid-cron' }, { token: 'developer' })).toMatchObject({
      status: 400,
      body: { message: { cron: [' is invalid syntax'] } },
    });
    expect(await app.put(one(schedule.id), { ref: '' }, { token: 'developer' })).toMatchObject({ status: 400, body: { message: { ref: ['is ambiguous'] } } });
    expect(await app.put(one(schedule.id), { description: '' }, { token: 'developer' })).toMatchObject({
      status: 400,
      body: { message: { description: ["can't be blank"] } },
    });
    expect(await app.put(one(schedule.id), { cron_timezone: 'Nowhere' }, { token: 'developer' })).toMatchObject({
      status: 400,
      body: { message: { cron_timezone: [' is invalid syntax'] } },
    });
  });

  it('is for the owner only: 403 for Maintainers and Owners who do not own it, allowed for admins', async () => {
    const schedule = await createSchedule(app, 'developer');
    expect(await app.put(one(schedule.id), { description: 'Mine now' }, { token: 'maintainer' })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    });
    expect(await app.put(one(schedule.id), { description: 'Mine now' }, { token: 'owner' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await app.put(one(schedule.id), { description: 'x' }, { token: 'nonMember' })).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
    expect(await app.put(one(schedule.id), { description: 'x' })).toMatchObject({ status: 401 });
    expect(await app.put(one(schedule.id), { description: 'By admin' }, { token: 'admin' })).toMatchObject({ status: 200, body: { description: 'By admin' } });
  });
});

describe('POST /projects/:id/pipeline_schedules/:pipeline_schedule_id/take_ownership', () => {
  it('hands the schedule to a Maintainer with 201, and answers 200 when they own it already', async () => {
    const schedule = await createSchedule(app, 'developer');
    const taken = await app.post(`${one(schedule.id)}/take_ownership`, undefined, { token: 'maintainer' });
    expect(taken.status).toBe(201);
    expect(taken.body.owner.username).toBe('maintainer');
    expect(taken.body.last_pipeline).toBeNull();
    const again = await app.post(`${one(schedule.id)}/take_ownership`, undefined, { token: 'maintainer' });
    expect(again.status).toBe(200);
    expect(again.body.owner.username).toBe('maintainer');
    // The former owner may no longer edit it.
    expect(await app.put(one(schedule.id), { description: 'x' }, { token: 'developer' })).toMatchObject({ status: 403 });
    expect((await app.put(one(schedule.id), { description: 'x' }, { token: 'maintainer' })).status).toBe(200);
  });

  it('lets the owner "take" their own schedule with 200, and refuses other Developers', async () => {
    const schedule = await createSchedule(app, 'developer');
    expect((await app.post(`${one(schedule.id)}/take_ownership`, undefined, { token: 'developer' })).status).toBe(200);
    const other = await createSchedule(app, 'maintainer');
    expect(await app.post(`${one(other.id)}/take_ownership`, undefined, { token: 'developer' })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    });
    expect(await app.post(`${one(other.id)}/take_ownership`, undefined, { token: 'reporter' })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    });
    expect(await app.post(`${one(999999)}/take_ownership`, undefined, { token: 'maintainer' })).toMatchObject({
      status: 404,
      body: { message: '404 Pipeline Schedule Not Found' },
    });
  });
});

describe('DELETE /projects/:id/pipeline_schedules/:pipeline_schedule_id', () => {
  it('deletes for Maintainers and for the owner, answering 200 with the schedule as GET showed it', async () => {
    const byMaintainer = await createSchedule(app, 'developer', { inputs: [{ name: 'stage', value: 'deploy' }] });
    await app.post(`${one(byMaintainer.id)}/variables`, { key: 'TARGET', value: 'prod' }, { token: 'developer' });
    await app.post(`${one(byMaintainer.id)}/play`, undefined, { token: 'developer' });
    const shown = await app.get(one(byMaintainer.id), { token: 'maintainer' });
    expect(shown.body.variables).toEqual([{ variable_type: 'env_var', key: 'TARGET', value: 'prod', raw: false }]);
    expect(shown.body.last_pipeline).not.toBeNull();
    const res = await app.delete(one(byMaintainer.id), { token: 'maintainer' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(shown.body);
    expect((await app.get(one(byMaintainer.id), { token: 'maintainer' })).status).toBe(404);
    const own = await createSchedule(app, 'developer');
    const mine = await app.delete(one(own.id), { token: 'developer' });
    expect(mine).toMatchObject({ status: 200, body: { id: own.id, description: own.description, owner: { username: app.users.developer.username } } });
  });

  it("refuses a Developer deleting someone else's schedule, and missing schedules", async () => {
    const schedule = await createSchedule(app, 'maintainer');
    expect(await app.delete(one(schedule.id), { token: 'developer' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await app.delete(one(999999), { token: 'maintainer' })).toMatchObject({ status: 404, body: { message: '404 Pipeline Schedule Not Found' } });
  });

  it('answers 412 when the schedule changed after If-Unmodified-Since', async () => {
    const schedule = await createSchedule(app, 'developer');
    const stale = new Date(Date.parse(schedule.updated_at as string) - 60_000).toUTCString();
    expect(await app.delete(one(schedule.id), { token: 'maintainer', headers: { 'If-Unmodified-Since': stale } })).toMatchObject({
      status: 412,
      body: { message: '412 Precondition Failed' },
    });
    const fresh = new Date(Date.parse(schedule.updated_at as string) + 60_000).toUTCString();
    expect((await app.delete(one(schedule.id), { token: 'maintainer', headers: { 'If-Unmodified-Since': fresh } })).status).toBe(200);
  });
});

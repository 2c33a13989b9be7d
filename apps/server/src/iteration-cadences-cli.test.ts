import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { iterationsPlugin } from '@forgekit/plugin-iterations';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { iterationCadencesCommand } from './iteration-cadences-cli.js';

describe('forgekit iteration-cadences', () => {
  let app: TestApp;
  const run = (sub: string, ...args: string[]) => iterationCadencesCommand(app.kernel, sub, ['--group', 'test-group', ...args]);

  beforeAll(async () => {
    app = await createTestApp({ plugins: [iterationsPlugin] });
  });
  afterAll(() => app?.close());

  it('creates, lists, updates, schedules and deletes cadences of a group', async () => {
    const start = new Date().toISOString().slice(0, 10);
    const created = JSON.parse(await run('create', '--title', 'Sprints', '--start-date', start, '--duration-in-weeks', '2', '--iterations-in-advance', '1'));
    expect(created).toMatchObject({ title: 'Sprints', automatic: true, start_date: start, duration_in_weeks: 2, iterations_in_advance: 1 });
    const iterations = await app.get(`/api/v4/groups/${app.group.id}/iterations`, { token: 'owner' });
    expect(iterations.body).toHaveLength(2);

    const manual = JSON.parse(await run('create', '--title', 'Releases', '--manual', '--description', 'by hand'));
    expect(manual).toMatchObject({ automatic: false, description: 'by hand' });
    expect(JSON.parse(await run('list')).map((cadence: { title: string }) => cadence.title)).toEqual(['Sprints', 'Releases']);

    expect(JSON.parse(await run('update', '--id', String(created.id), '--iterations-in-advance', '2'))).toMatchObject({ iterations_in_advance: 2 });
    // The job queued by the update may have scheduled it first: either way one more iteration exists.
    expect(await run('schedule', '--id', String(created.id))).toMatch(/^[01] iterations created$/);
    expect((await app.get(`/api/v4/groups/${app.group.id}/iterations`, { token: 'owner' })).body).toHaveLength(3);

    expect(await run('delete', '--id', String(manual.id))).toBe('deleted');
    expect(JSON.parse(await run('list'))).toHaveLength(1);
  });

  it('reports what is wrong', async () => {
    await expect(run('create')).rejects.toThrow('--title is required');
    await expect(run('delete')).rejects.toThrow('--id is required');
    await expect(run('update', '--id', 'x')).rejects.toThrow('--id must be a whole number');
    await expect(run('frobnicate')).rejects.toThrow("Unknown iteration-cadences command 'frobnicate'");
    await expect(iterationCadencesCommand(app.kernel, 'list', [])).rejects.toThrow('--group is required');
    await expect(iterationCadencesCommand(app.kernel, 'list', ['--group', 'nope'])).rejects.toThrow('404 Group Not Found');
    await expect(run('create', '--title', 'Auto')).rejects.toThrow("can't be blank");
  });
});

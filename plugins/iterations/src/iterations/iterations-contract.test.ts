import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kernelServices } from '@forgekit/kernel';
import { corePlugin } from '@forgekit/plugin-core';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { schemaDriftOf } from '@forgekit/testing';
import { iterationsServiceRef } from '../contracts.js';
import { IterationEntity } from '../entities/iteration.js';
import { iterationsPlugin } from '../plugin.js';
import { day, manualCadence, manualIteration } from '../testing/fixtures.js';
import { iterationSchema } from './iteration-schemas.js';

describe('the iterations service other plugins use', () => {
  let app: TestApp;
  let ids: { past: number; current: number; future: number };

  beforeAll(async () => {
    app = await createTestApp({ plugins: [iterationsPlugin] });
    const cadence = await manualCadence(app, app.group.id);
    ids = {
      future: (await manualIteration(app, app.group.id, cadence, { title: 'Future', start_date: day(8), due_date: day(14) })).id,
      past: (await manualIteration(app, app.group.id, cadence, { title: 'Past', start_date: day(-14), due_date: day(-8) })).id,
      current: (await manualIteration(app, app.group.id, cadence, { title: 'Now', start_date: day(-1), due_date: day(1) })).id,
    };
  });
  afterAll(() => app?.close());

  it('finds an iteration of the project group, with the state for today and the entity', async () => {
    const service = app.kernel.resolve(iterationsServiceRef);
    const iteration = await service.forProject(app.project.id, ids.current);
    expect(iteration).toMatchObject({ id: ids.current, groupId: app.group.id, title: 'Now', startDate: day(-1), dueDate: day(1), sequence: 2, iid: 3 });
    expect(service.stateOf(iteration!)).toBe(2);
    expect(service.entity(iteration!)).toEqual({
      id: ids.current,
      iid: 3,
      sequence: 2,
      group_id: app.group.id,
      title: 'Now',
      description: null,
      state: 2,
      created_at: iteration!.createdAt,
      updated_at: iteration!.updatedAt,
      start_date: day(-1),
      due_date: day(1),
      web_url: `http://localhost/groups/test-group/-/iterations/${ids.current}`,
    });
  });

  it('answers null for an unknown iteration or a project outside the group', async () => {
    const service = app.kernel.resolve(iterationsServiceRef);
    expect(await service.forProject(app.project.id, 999_999)).toBeNull();
    expect(await service.forProject(999_999, ids.current)).toBeNull();
  });

  it('finds iterations by id, leaving unknown ids out, with states', async () => {
    const service = app.kernel.resolve(iterationsServiceRef);
    const found = await service.byIds([ids.future, ids.past, 424242]);
    expect(found.map((iteration) => [iteration.title, service.stateOf(iteration)]).sort()).toEqual([
      ['Future', 1],
      ['Past', 3],
    ]);
    expect(await service.byIds([])).toEqual([]);
  });

  it('always has a web_url: an iteration whose group is gone is not answered, and the API description says a string', async () => {
    const service = app.kernel.resolve(iterationsServiceRef);
    const now = new Date();
    const orphan = await app.kernel.resolve(kernelServices.database).insert(IterationEntity, {
      iid: 1,
      sequence: 1,
      groupId: 999_999,
      cadenceId: 999_999,
      title: null,
      description: null,
      startDate: day(-1),
      dueDate: day(1),
      closedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    expect((await service.byIds([orphan, ids.past])).map((iteration) => service.entity(iteration).web_url)).toEqual([
      `http://localhost/groups/test-group/-/iterations/${ids.past}`,
    ]);
    expect((iterationSchema.properties as Record<string, unknown>).web_url).toEqual({ type: 'string' });
  });

  it('has entities that match its migrations', async () => {
    // The plugin needs core's services to boot.
    expect((await schemaDriftOf([corePlugin, iterationsPlugin])).iterations).toEqual([]);
  });
});

import { AsyncLocalStorage } from 'node:async_hooks';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { allPlugins } from './plugins.js';

/**
 * On Node 20 and 22, the first AsyncLocalStorage `run` or `enterWith` turns on async hooks
 * for every promise of the process for good, which cost every request about 6% in the
 * bench. MikroORM's `em.transactional` and `em.flush` enter one; the server must not.
 */
describe('the server and an AsyncLocalStorage', () => {
  const run = vi.spyOn(AsyncLocalStorage.prototype, 'run');
  const enterWith = vi.spyOn(AsyncLocalStorage.prototype, 'enterWith');
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ plugins: allPlugins });
  });
  afterAll(async () => {
    run.mockRestore();
    enterWith.mockRestore();
    await app.close();
  });

  it('boots and writes through every kind of write without entering one', async () => {
    const project = await app.post('/api/v4/projects', { name: 'Hooks', namespace_id: app.group.id }, { token: 'owner' });
    expect(project.status).toBe(201);
    const base = `/api/v4/projects/${project.body.id}`;
    expect((await app.post(`${base}/variables`, { key: 'HOOKS', value: 'v' }, { token: 'owner' })).status).toBe(201);
    expect((await app.post(`${base}/labels`, { name: 'hooks', color: '#ff0000' }, { token: 'owner' })).status).toBe(201);
    const milestone = await app.post(`${base}/milestones`, { title: 'Hooks' }, { token: 'owner' });
    expect(milestone.status).toBe(201);
    const issue = await app.post(`${base}/issues`, { title: 'Hooks', labels: 'hooks', milestone_id: milestone.body.id }, { token: 'owner' });
    expect(issue.status).toBe(201);
    expect((await app.put(`${base}/issues/${issue.body.iid}`, { state_event: 'close' }, { token: 'owner' })).status).toBe(200);
    expect((await app.delete(base, { token: 'owner' })).status).toBe(202);
    expect(run).not.toHaveBeenCalled();
    expect(enterWith).not.toHaveBeenCalled();
  });
});

/**
 * Iid counters (`internal_ids`) belong to the project or group whose records they number:
 * deleting the parent removes them, as it removes the records.
 */
import { InternalIdEntity } from '@forgekit/kernel/orm';
import { createTestApp } from '@forgekit/plugin-core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { allPlugins } from './plugins.js';

const app = await createTestApp({ plugins: allPlugins });
afterAll(() => app.close());

const counters = async () => (await app.kernel.database.rows(app.kernel.database.from(InternalIdEntity))).map((row) => `${row.usage}:${row.scopeId}`).sort();

async function created(path: string, body: Record<string, unknown>) {
  const answer = await app.post(path, body, { token: 'admin' });
  expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(201);
  return answer.body as { id: number };
}

describe('iid counters', () => {
  it('go with the project and the group they number', async () => {
    const group = await created('/api/v4/groups', { name: 'Counted', path: 'counted' });
    const project = await created('/api/v4/projects', { name: 'Counted', namespace_id: group.id, initialize_with_readme: true });
    const projectPath = `/api/v4/projects/${project.id}`;
    await created(`${projectPath}/issues`, { title: 'One' });
    await created(`${projectPath}/milestones`, { title: 'v1' });
    await created(`${projectPath}/repository/branches`, { branch: 'topic', ref: 'main' });
    await created(`${projectPath}/merge_requests`, { title: 'Topic', source_branch: 'topic', target_branch: 'main' });
    await created(`/api/v4/groups/${group.id}/milestones`, { title: 'g1' });
    const cadence = await created(`/api/v4/groups/${group.id}/iteration_cadences`, { title: 'Sprints', automatic: false });
    await created(`/api/v4/groups/${group.id}/iteration_cadences/${cadence.id}/iterations`, { start_date: '2030-01-07', due_date: '2030-01-13' });
    const mine = [
      `issues:${project.id}`,
      `iterations:${group.id}`,
      `merge_requests:${project.id}`,
      `milestones:group:${group.id}`,
      `milestones:project:${project.id}`,
    ];
    expect(await counters()).toEqual(expect.arrayContaining(mine));

    expect((await app.delete(`/api/v4/groups/${group.id}`, { token: 'admin' })).status).toBe(202);
    const left = await counters();
    expect(left.filter((counter) => mine.includes(counter))).toEqual([]);
  });
});

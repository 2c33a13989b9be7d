/**
 * A set of runners of every kind over the seeded group and project, mirroring the
 * situations GitLab's own API tests use.
 */
import type { TestApp } from '@forgekit/plugin-core/testing';
import { createProject, registrationToken, registerRunner } from './runner-fixtures.js';

export interface RunnerWorld {
  /** `test-group/second-project`. */
  project2: { id: number };
  /** A personal project of the group owner; the group's Maintainer has no access to it. */
  personalProject: { id: number };
  subgroup: { id: number };
  shared: { id: number; token: string };
  projectRunner: { id: number; token: string };
  /** Owned by the seeded project, also assigned to the owner's personal project. */
  twoProjectsRunner: { id: number; token: string };
  groupRunnerA: { id: number; token: string };
  /** A runner of a subgroup of the seeded group. */
  groupRunnerB: { id: number; token: string };
}

export async function buildRunnerWorld(app: TestApp): Promise<RunnerWorld> {
  const project2 = await createProject(app, 'second-project');
  const personal = await app.post('/api/v4/projects', { name: 'personal', path: 'personal' }, { token: 'owner' });
  const subgroup = await app.post('/api/v4/groups', { name: 'Sub', path: 'sub', parent_id: app.group.id }, { token: 'owner' });
  if (personal.status !== 201 || subgroup.status !== 201) throw new Error('world setup failed');

  const shared = await registerRunner(app, await registrationToken(app, { instance: true }), {
    description: 'Shared runner',
    maintenance_note: 'Maintenance note',
  });
  const projectToken = await registrationToken(app, { project: app.project.id });
  const projectRunner = await registerRunner(app, projectToken, { description: 'Project runner', maintenance_note: 'Maintenance note' });
  const twoProjectsRunner = await registerRunner(app, projectToken, { description: 'Two projects runner' });
  const assigned = await app.post(`/api/v4/projects/${personal.body.id}/runners`, { runner_id: twoProjectsRunner.id }, { token: 'owner' });
  if (assigned.status !== 201) throw new Error(`assign failed: ${assigned.text}`);
  const groupRunnerA = await registerRunner(app, await registrationToken(app, { group: app.group.id }), {
    description: 'Group runner A',
    maintenance_note: 'Maintenance note',
  });
  const groupRunnerB = await registerRunner(app, await registrationToken(app, { group: subgroup.body.id }), { description: 'Group runner B' });
  return { project2, personalProject: personal.body, subgroup: subgroup.body, shared, projectRunner, twoProjectsRunner, groupRunnerA, groupRunnerB };
}

export const descriptions = (items: { description: string }[]) => items.map((item) => item.description);

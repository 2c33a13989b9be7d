/** Shared steps of this plugin's tests (not part of the build). */
import { createTestApp, type TestApp, type TestAppOptions } from '@forgekit/plugin-core/testing';
import { clusterAgentsPlugin } from '../plugin.js';

export const startApp = (options: Omit<TestAppOptions, 'plugins'> = {}) => createTestApp({ ...options, plugins: [clusterAgentsPlugin] });

export const agentsPath = (app: TestApp, projectId = app.project.id) => `/api/v4/projects/${projectId}/cluster_agents`;

/** Registers an agent as the maintainer and returns its id. */
export async function registerAgent(app: TestApp, name: string, projectId = app.project.id): Promise<number> {
  const res = await app.post(agentsPath(app, projectId), { name }, { token: 'maintainer' });
  if (res.status !== 201) throw new Error(`registering ${name} gave ${res.status} ${res.text}`);
  return res.body.id;
}

/** Creates an agent token as the maintainer and returns the response body (with the secret). */
export async function createAgentToken(app: TestApp, agentId: number, name: string, projectId = app.project.id) {
  const res = await app.post(`${agentsPath(app, projectId)}/${agentId}/tokens`, { name }, { token: 'maintainer' });
  if (res.status !== 201) throw new Error(`creating token ${name} gave ${res.status} ${res.text}`);
  return res.body as { id: number; token: string };
}

/** A second project in the seeded group, owned by `owner`. */
export async function createProject(app: TestApp, path: string): Promise<number> {
  const res = await app.post('/api/v4/projects', { name: path, path, namespace_id: app.group.id }, { token: 'owner' });
  if (res.status !== 201) throw new Error(`creating project ${path} gave ${res.status} ${res.text}`);
  return res.body.id;
}

/** The failure body of GitLab's `bad_request!` for a list of model messages. */
export const modelErrors = (...messages: string[]) => ({ message: `400 Bad request - [${messages.map((m) => JSON.stringify(m)).join(', ')}]` });

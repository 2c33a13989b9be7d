/** Test helpers: an app with the runners plugin, tokens, runners and contact times. */
import { coreTokensRef } from '@forgekit/plugin-core/contracts';
import { planLimitsPlugin } from '@forgekit/plugin-plan-limits';
import { createTestApp, type Role, type TestApp } from '@forgekit/plugin-core/testing';
import { RunnerEntity, type RunnerRow } from '../entities/runner.js';
import { runnersPlugin } from '../plugin.js';

export const startRunnersApp = () => createTestApp({ plugins: [planLimitsPlugin, runnersPlugin] });

/** A response's status and body, to compare whole: an error test asserts the exact body. */
export const answer = (res: { status: number; body: unknown }) => ({ status: res.status, body: res.body });

/** GitLab's answer to a token without the scopes a route needs (`scope` lists those that would do). */
export const insufficientScope = (scope: string) => ({
  status: 403,
  body: { error: 'insufficient_scope', error_description: 'The request requires higher privileges than provided by the access token.', scope },
});

type Scope = { instance: true } | { group: number | string } | { project: number | string };

/** A fresh registration token for the instance (as admin), a group (owner) or a project (maintainer). */
export async function registrationToken(app: TestApp, scope: Scope): Promise<string> {
  const [path, role]: [string, Role] =
    'instance' in scope
      ? ['/api/v4/runners/reset_registration_token', 'admin']
      : 'group' in scope
        ? [`/api/v4/groups/${encodeURIComponent(String(scope.group))}/runners/reset_registration_token`, 'owner']
        : [`/api/v4/projects/${encodeURIComponent(String(scope.project))}/runners/reset_registration_token`, 'maintainer'];
  const res = await app.post(path, undefined, { token: role });
  if (res.status !== 201) throw new Error(`reset registration token: ${res.status} ${res.text}`);
  return res.body.token;
}

/** Registers a runner with a registration token; returns `{ id, token }`. */
export async function registerRunner(app: TestApp, registration: string, body: Record<string, unknown> = {}): Promise<{ id: number; token: string }> {
  const res = await app.post('/api/v4/runners', { token: registration, ...body });
  if (res.status !== 201) throw new Error(`register runner: ${res.status} ${res.text}`);
  return res.body;
}

/** Creates a runner through `POST /user/runners` as the given role. */
export async function createRunner(app: TestApp, role: Role, body: Record<string, unknown>): Promise<{ id: number; token: string }> {
  const res = await app.post('/api/v4/user/runners', body, { token: role });
  if (res.status !== 201) throw new Error(`create runner: ${res.status} ${res.text}`);
  return res.body;
}

const HOUR = 60 * 60 * 1000;

/** Moves a runner's creation and last contact into the past (hours ago; null for never). */
export async function setTimes(app: TestApp, runnerId: number, times: { createdHoursAgo?: number; contactedHoursAgo?: number | null }) {
  const changes: Partial<RunnerRow> = {};
  if (times.createdHoursAgo !== undefined) changes.createdAt = new Date(Date.now() - times.createdHoursAgo * HOUR);
  if (times.contactedHoursAgo !== undefined) {
    changes.contactedAt = times.contactedHoursAgo === null ? null : new Date(Date.now() - times.contactedHoursAgo * HOUR);
  }
  await app.kernel.database.update(RunnerEntity, { id: runnerId }, changes);
}

/** A project in the seeded group (or another namespace), created by the group's owner. */
export async function createProject(app: TestApp, path: string, namespaceId = app.group.id): Promise<{ id: number; path_with_namespace: string }> {
  const res = await app.post('/api/v4/projects', { name: path, path, namespace_id: namespaceId }, { token: 'owner' });
  if (res.status !== 201) throw new Error(`create project: ${res.status} ${res.text}`);
  return res.body;
}

/** A personal access token of a seeded user with exactly these scopes. */
export async function tokenWithScopes(app: TestApp, role: Role, scopes: string[]): Promise<string> {
  const { secret } = await app.kernel.resolve(coreTokensRef).create({ userId: app.users[role].id, name: `${scopes.join('-')} token`, scopes });
  return secret;
}

/**
 * The credential Unleash SDKs present for a project (their "instance id"). One per
 * project, created on first use; kept readable because it is shown again to whoever
 * configures an SDK, as GitLab does.
 */
import { timingSafeEqual } from 'node:crypto';
import { API_PREFIX, generateToken, notFound } from '@forgekit/kernel';
import type { Knex } from '@forgekit/kernel/orm';
import type { ProjectService } from '@forgekit/plugin-core';

export const CLIENT_TOKEN_PREFIX = 'fkffct-';

export interface FeatureFlagsClientService {
  /** The project's instance id, created on first use (404 for an unknown project). */
  tokenFor(projectId: number): Promise<string>;
  /** Replaces the instance id; SDKs still sending the old one get 401 from then on. */
  resetToken(projectId: number): Promise<string>;
  /** Whether `token` is the project's instance id. */
  verify(projectId: number, token: string): Promise<boolean>;
  /** The URL an Unleash SDK is configured with for the project. */
  apiUrl(projectId: number): string;
}

const sameSecret = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

export function createFeatureFlagsClientService(db: Knex, projects: ProjectService, externalUrl: string): FeatureFlagsClientService {
  const clients = () => db<{ project_id: number; token: string }>('feature_flags_clients');

  async function requireProject(projectId: number) {
    if (!(await projects.findById(projectId))) throw notFound('Project');
  }

  return {
    async tokenFor(projectId) {
      const existing = await clients().where('project_id', projectId).first();
      if (existing) return existing.token;
      await requireProject(projectId);
      const now = new Date();
      await clients()
        .insert({ project_id: projectId, token: generateToken(CLIENT_TOKEN_PREFIX), created_at: now, updated_at: now } as never)
        .onConflict('project_id')
        .ignore();
      return (await clients().where('project_id', projectId).first())!.token;
    },

    async resetToken(projectId) {
      await requireProject(projectId);
      const token = generateToken(CLIENT_TOKEN_PREFIX);
      const now = new Date();
      await clients()
        .insert({ project_id: projectId, token, created_at: now, updated_at: now } as never)
        .onConflict('project_id')
        .merge({ token, updated_at: now } as never);
      return token;
    },

    async verify(projectId, token) {
      const client = await clients().where('project_id', projectId).first();
      return !!client && sameSecret(client.token, token);
    },

    apiUrl: (projectId) => `${externalUrl}${API_PREFIX}/feature_flags/unleash/${projectId}`,
  };
}

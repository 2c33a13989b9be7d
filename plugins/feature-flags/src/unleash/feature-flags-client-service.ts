/**
 * The credential Unleash SDKs present for a project (their "instance id"). One per
 * project, created on first use; kept readable because it is shown again to whoever
 * configures an SDK, as GitLab does.
 */
import { timingSafeEqual } from 'node:crypto';
import { API_PREFIX, generateToken, notFound } from '@forgekit/kernel';
import type { ProjectService } from '@forgekit/plugin-core/contracts';
import { CLIENT_TOKEN_PREFIX, type FeatureFlagsClientService } from '../contracts.js';
import type { ClientStore } from './client-store.js';

const sameSecret = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

export function createFeatureFlagsClientService(store: ClientStore, projects: ProjectService, externalUrl: string): FeatureFlagsClientService {
  async function requireProject(projectId: number) {
    if (!(await projects.findById(projectId))) throw notFound('Project');
  }

  return {
    async tokenFor(projectId) {
      const existing = await store.find(projectId);
      if (existing) return existing.token;
      await requireProject(projectId);
      return store.insertUnlessExists(projectId, generateToken(CLIENT_TOKEN_PREFIX));
    },

    async resetToken(projectId) {
      await requireProject(projectId);
      const token = generateToken(CLIENT_TOKEN_PREFIX);
      await store.replace(projectId, token);
      return token;
    },

    async verify(projectId, token) {
      const client = await store.find(projectId);
      return !!client && sameSecret(client.token, token);
    },

    apiUrl: (projectId) => `${externalUrl}${API_PREFIX}/feature_flags/unleash/${projectId}`,
  };
}

import type { AccessService, ProjectService, Project } from '@forgekit/plugin-core/contracts';
import { apiError } from '@forgekit/kernel';
import { RepositoryError } from '../git/repository-error.js';
import type { BranchProtection } from '../protected-branches/branch-protection.js';
import type { ProtectedBranchStore } from '../protected-branches/protected-branch-store.js';
import type { RepositoryHandle, RepositoryService } from '../storage/repository-service.js';
import type { ProjectRepositories } from './project-repository.js';

/** What the repository routes share. */
export interface RouteDeps {
  repos: RepositoryService;
  projectRepos: ProjectRepositories;
  projects: ProjectService;
  access: AccessService;
  protection: BranchProtection;
  protectedBranches: ProtectedBranchStore;
}

/** A refused repository operation as GitLab answers it: `400 {"message": ...}` unless told otherwise. */
export function asApiError(error: unknown, status = 400): never {
  if (error instanceof RepositoryError) throw apiError(status, error.message);
  throw error;
}

/** The branch reads default to: the repository's HEAD, else the project's setting, else `main`. */
export async function defaultBranchOf(repos: RepositoryService, repository: RepositoryHandle | null, project: Project): Promise<string> {
  const head = repository ? await repos.headBranch(repository) : null;
  return head ?? project.defaultBranch ?? 'main';
}

/** Sets the project's `default_branch` when the first branch of an empty repository appeared. */
export async function adoptDefaultBranch(projects: ProjectService, project: Project, branch: string) {
  if (project.defaultBranch !== branch) await projects.update(project, { defaultBranch: branch });
}

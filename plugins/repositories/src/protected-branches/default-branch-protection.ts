/**
 * A project's default branch is protected as soon as it exists (the first push, the first
 * commit through the API, or the README of `initialize_with_readme`), as GitLab does after
 * creating it; a deleted project's protected branches go with it.
 */
import type { EventBus } from '@forgekit/kernel';
import { coreEvents, type ProjectService } from '@forgekit/plugin-core/contracts';
import type { RepositoryService } from '../storage/repository-service.js';
import type { BranchProtection } from './branch-protection.js';
import type { ProtectedBranchStore } from './protected-branch-store.js';

export function protectDefaultBranches(options: {
  events: EventBus;
  projects: ProjectService;
  repos: RepositoryService;
  protection: BranchProtection;
  store: ProtectedBranchStore;
}) {
  const { events, projects, repos, protection, store } = options;

  repos.onRefsUpdated(async ({ repository, updates }) => {
    if (repository.kind !== 'project') return;
    const created = updates.filter((update) => update.before === null && update.after !== null && update.ref.startsWith('refs/heads/'));
    if (created.length === 0) return;
    const [head, branches] = await Promise.all([repos.headBranch(repository), repos.listRefs(repository, 'branches')]);
    // The branch HEAD names, or the only branch there is: it is (or is about to become) the default.
    const first = created
      .map((update) => update.ref.slice('refs/heads/'.length))
      .find((name) => name === head || (branches.length === 1 && branches[0]!.name === name));
    if (!first) return;
    const project = await projects.findById(repository.containerId);
    if (project) await protection.protectDefaultBranch(project, first);
  });

  events.on(coreEvents.projectDeleted, async ({ projectId }) => {
    await store.removeProject(projectId);
  });
}

/**
 * Refs read from the project's repository: a short name becomes the branch or the
 * tag of that name when exactly one of them exists; a name that is both, or
 * neither, is left unexpanded (and so refused as ambiguous).
 */
import type { RepositoryReads } from '@forgekit/plugin-repositories/contracts';
import { isValidBranchName, type RefProject, type RefResolver } from './ref-resolver.js';

/** The subset of the repository reads refs are read with. */
export type RefReader = Pick<RepositoryReads, 'find' | 'resolveCommit'>;

export function repositoryRefResolver(repositories: RefReader): RefResolver {
  const repositoryOf = (project: RefProject) => repositories.find({ kind: 'project', containerId: project.id });

  return {
    async expandShortRef(project, name) {
      // Revision syntax (`main~1`, `v1^{}`) names a commit, never a branch or tag.
      if (!isValidBranchName(name)) return null;
      const repository = await repositoryOf(project);
      if (!repository) return null;
      const [branch, tag] = await Promise.all([
        repositories.resolveCommit(repository, `refs/heads/${name}`),
        repositories.resolveCommit(repository, `refs/tags/${name}`),
      ]);
      if ((branch === null) === (tag === null)) return null;
      return branch !== null ? `refs/heads/${name}` : `refs/tags/${name}`;
    },
    async commitFor(project, fullRef) {
      const repository = await repositoryOf(project);
      return repository ? repositories.resolveCommit(repository, fullRef) : null;
    },
  };
}

/**
 * Other names for a project in git URLs. GitLab's project aliases let `git clone
 * http://host/<alias>.git` reach a project by a top-level name; the plugin that owns such
 * names registers a resolver here, and git over HTTP asks the resolvers about any URL with
 * no namespace (where no project path can live).
 *
 * Repositories that belong to no project (a snippet's) are reached the same way: the plugin
 * that owns them registers a container resolver, asked first about every repository path.
 */
import type { Principal } from '@forgekit/kernel';
import type { RepositoryKey } from '../storage/storages.js';

/** The project id a top-level name stands for, or null when this resolver does not know it. */
export type GitPathResolver = (name: string) => Promise<number | null>;

/** A repository a container resolver found behind a git URL, and what the caller may do with it. */
export interface GitContainer {
  key: RepositoryKey;
  /** Whether the caller may know it exists (otherwise git is told it was not found). */
  visible: boolean;
  canDownload: boolean;
  canPush: boolean;
}

/** The repository a path (`snippets/5`, `group/project/snippets/5`, without `.git`) names, or null when it names none of this resolver's. */
export type GitContainerResolver = (path: string, user: Principal | null) => Promise<GitContainer | null>;

export interface GitPaths {
  /** Adds a resolver of repositories that belong to no project; asked before project paths. */
  addContainerResolver(resolver: GitContainerResolver): void;
  /** The non-project repository a path names for the caller, or null. */
  container(path: string, user: Principal | null): Promise<GitContainer | null>;
  /** Adds a resolver; the first that knows a name wins, in the order they were added. */
  addResolver(resolver: GitPathResolver): void;
  /** The project id a top-level name stands for, or null. */
  resolve(name: string): Promise<number | null>;
}

export function createGitPaths(): GitPaths {
  const resolvers: GitPathResolver[] = [];
  const containers: GitContainerResolver[] = [];
  return {
    addContainerResolver(resolver) {
      containers.push(resolver);
    },
    async container(path, user) {
      for (const resolver of containers) {
        const found = await resolver(path, user);
        if (found) return found;
      }
      return null;
    },
    addResolver(resolver) {
      resolvers.push(resolver);
    },
    async resolve(name) {
      for (const resolver of resolvers) {
        const projectId = await resolver(name);
        if (projectId !== null) return projectId;
      }
      return null;
    },
  };
}

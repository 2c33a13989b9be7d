/**
 * Other names for a project in git URLs. GitLab's project aliases let `git clone
 * http://host/<alias>.git` reach a project by a top-level name; the plugin that owns such
 * names registers a resolver here, and git over HTTP asks the resolvers about any URL with
 * no namespace (where no project path can live).
 */

/** The project id a top-level name stands for, or null when this resolver does not know it. */
export type GitPathResolver = (name: string) => Promise<number | null>;

export interface GitPaths {
  /** Adds a resolver; the first that knows a name wins, in the order they were added. */
  addResolver(resolver: GitPathResolver): void;
  /** The project id a top-level name stands for, or null. */
  resolve(name: string): Promise<number | null>;
}

export function createGitPaths(): GitPaths {
  const resolvers: GitPathResolver[] = [];
  return {
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

/**
 * How a schedule's `ref` becomes a full ref. This is the seam to the repository:
 * the default resolver knows no branches or tags and reads every valid short name
 * as a branch; a resolver backed by the repository replaces it to expand names to
 * the branch or tag that exists and to refuse names that match both or neither.
 */

/** The project a ref belongs to. */
export interface RefProject {
  id: number;
  /** `group/project`. */
  fullPath: string;
  defaultBranch: string | null;
}

export interface RefResolver {
  /** `refs/heads/<name>` or `refs/tags/<name>` for a short name; null when it names no single branch or tag. */
  expandShortRef(project: RefProject, name: string): Promise<string | null>;
  /** The commit a full ref points at; null when unknown. */
  commitFor(project: RefProject, fullRef: string): Promise<string | null>;
}

/** A ref that needs no expansion (GitLab's own test is this prefix followed by non-space). */
export const FULL_REF = /^(refs\/tags\/|refs\/heads\/)\S+/;

/** Git's rules for a branch name (`git check-ref-format --branch`). */
export function isValidBranchName(name: string): boolean {
  if (name === '' || name === '@' || name.startsWith('-')) return false;
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return false;
  if (name.includes('..') || name.includes('@{') || name.includes('//')) return false;
  if (name.startsWith('/') || name.endsWith('/') || name.endsWith('.')) return false;
  return name.split('/').every((part) => !part.startsWith('.') && !part.endsWith('.lock'));
}

/** Without a repository: every name that could be a branch is taken as one. */
export const defaultRefResolver: RefResolver = {
  async expandShortRef(_project, name) {
    return isValidBranchName(name) ? `refs/heads/${name}` : null;
  },
  async commitFor() {
    return null;
  },
};

/** A full ref's short name and whether it is a tag, as pipelines record them. */
export function splitFullRef(fullRef: string): { ref: string; tag: boolean } {
  if (fullRef.startsWith('refs/tags/')) return { ref: fullRef.slice('refs/tags/'.length), tag: true };
  if (fullRef.startsWith('refs/heads/')) return { ref: fullRef.slice('refs/heads/'.length), tag: false };
  return { ref: fullRef, tag: false };
}

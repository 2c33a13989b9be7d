/**
 * Checks a diff note's `position` against the real diff of its shas, as GitLab's DiffNote
 * validation does: a text position must name a line of the diff (an added line by `new_line`,
 * a removed line by `old_line`, an unchanged line shown in a hunk by both), or the note is
 * refused with GitLab's `line_code` errors.
 */
import { badRequest } from '@forgekit/kernel';
import type { FoundNoteable } from '@forgekit/plugin-notes/contracts';
import type { FileDiff, RepositoryHandle, RepositoryReads } from '@forgekit/plugin-repositories/contracts';

/** GitLab's answer for a position whose line is not in the diff (or whose shas or paths name no diff). */
export const INVALID_LINE = 'Note {:line_code=>["can\'t be blank", "must be a valid line code"]}';

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/**
 * The lines a patch shows, as `old:new` keys (`old:` for removed, `:new` for added lines).
 * Hand-written: the repository plugin hands out the patch text, and this is the whole of what
 * GitLab's line lookup needs from it.
 */
export function diffLineKeys(patch: string): Set<string> {
  const keys = new Set<string>();
  let oldLine = 0;
  let newLine = 0;
  for (const line of patch.split('\n')) {
    const hunk = HUNK.exec(line);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      continue;
    }
    if (oldLine === 0 && newLine === 0) continue;
    const marker = line.charAt(0);
    if (marker === '+') keys.add(`:${newLine++}`);
    else if (marker === '-') keys.add(`${oldLine++}:`);
    else if (marker === ' ') keys.add(`${oldLine++}:${newLine++}`);
  }
  return keys;
}

const lineNumber = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null);
const path = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
/** Only object names reach git, never an option. */
const sha = (value: unknown) => (typeof value === 'string' && /^[0-9a-f]{7,64}$/i.test(value) ? value : null);

/** Whether a text position names a line of the file's diff. */
export function positionInDiff(files: readonly FileDiff[], position: Readonly<Record<string, unknown>>): boolean {
  const newPath = path(position.new_path);
  const oldPath = path(position.old_path);
  const file = files.find(
    (candidate) => (newPath !== null && candidate.newPath === newPath) || (newPath === null && oldPath !== null && candidate.oldPath === oldPath),
  );
  if (!file) return false;
  const oldLine = lineNumber(position.old_line);
  const newLine = lineNumber(position.new_line);
  if (oldLine === null && newLine === null) return false;
  return diffLineKeys(file.diff).has(`${oldLine ?? ''}:${newLine ?? ''}`);
}

export interface PositionDeps {
  reads: Pick<RepositoryReads, 'diff'>;
  repositoryOf(projectId: number): Promise<RepositoryHandle | null>;
}

/** The merge requests' `checkPosition` for the notes plugin. */
export function positionChecker(deps: PositionDeps) {
  return async function checkPosition(noteable: FoundNoteable, position: Readonly<Record<string, unknown>>): Promise<void> {
    if (position.position_type !== 'text') return;
    const repository = await deps.repositoryOf(noteable.projectId);
    const base = sha(position.base_sha);
    const head = sha(position.head_sha);
    const files = repository && base && head ? await deps.reads.diff(repository, base, head).catch(() => []) : [];
    if (!positionInDiff(files, position)) throw badRequest(INVALID_LINE);
  };
}

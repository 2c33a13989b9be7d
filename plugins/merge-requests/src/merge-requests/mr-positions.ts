/**
 * Checks a diff note's `position` against the real diff of its shas, as GitLab's DiffNote
 * validation does: a text position must name a line of the diff (an added line by `new_line`,
 * a removed line by `old_line`, an unchanged line by both), or the note is refused with
 * GitLab's `line_code` errors. An unchanged line outside the hunks counts too, as GitLab
 * unfolds the diff to it: its two numbers must agree with the hunks above it, and the line
 * must be in the file.
 */
import { badRequest } from '@forgekit/kernel';
import type { FoundNoteable } from '@forgekit/plugin-notes/contracts';
import type { FileDiff, RepositoryHandle, RepositoryReads } from '@forgekit/plugin-repositories/contracts';

/** GitLab's answer for a position whose line is not in the diff (or whose shas or paths name no diff). */
export const INVALID_LINE = 'Note {:line_code=>["can\'t be blank", "must be a valid line code"]}';

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

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
      newLine = Number(hunk[3]);
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

/** A hunk side's first line and the line after it; a side of no lines (`-4,0`) sits after its start line. */
const span = (start: string, count: string | undefined): [number, number] => {
  const lines = count === undefined ? 1 : Number(count);
  const first = lines === 0 ? Number(start) + 1 : Number(start);
  return [first, first + lines];
};

/**
 * Whether `oldLine:newLine` is an unchanged line outside the patch's hunks, in a file of
 * `oldLineCount` lines: above the first hunk both numbers are equal, below a hunk they differ
 * by what the hunks above added and removed.
 */
export function unchangedOutsideHunks(patch: string, oldLine: number, newLine: number, oldLineCount: number): boolean {
  if (oldLine > oldLineCount) return false;
  let shift = 0;
  for (const line of patch.split('\n')) {
    const hunk = HUNK.exec(line);
    if (!hunk) continue;
    const [oldStart, oldEnd] = span(hunk[1]!, hunk[2]);
    if (oldLine < oldStart) break;
    if (oldLine < oldEnd) return false;
    shift = span(hunk[3]!, hunk[4])[1] - oldEnd;
  }
  return newLine === oldLine + shift;
}

/** Lines in a text, as an editor numbers them (a last line without its newline still counts). */
const lineCount = (text: Buffer) => {
  let count = 0;
  for (let at = text.indexOf(10); at !== -1; at = text.indexOf(10, at + 1)) count++;
  return text.length > 0 && text[text.length - 1] !== 10 ? count + 1 : count;
};

const lineNumber = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null);
const path = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
/** Only object names reach git, never an option. */
const sha = (value: unknown) => (typeof value === 'string' && /^[0-9a-f]{7,64}$/i.test(value) ? value : null);

/** The file of the diff a position names, by its new path (or its old one, for a deleted file). */
function fileOf(files: readonly FileDiff[], position: Readonly<Record<string, unknown>>): FileDiff | undefined {
  const newPath = path(position.new_path);
  const oldPath = path(position.old_path);
  return files.find(
    (candidate) => (newPath !== null && candidate.newPath === newPath) || (newPath === null && oldPath !== null && candidate.oldPath === oldPath),
  );
}

/** Whether a text position names a line the file's diff shows. */
export function positionInDiff(files: readonly FileDiff[], position: Readonly<Record<string, unknown>>): boolean {
  const file = fileOf(files, position);
  if (!file) return false;
  const oldLine = lineNumber(position.old_line);
  const newLine = lineNumber(position.new_line);
  if (oldLine === null && newLine === null) return false;
  return diffLineKeys(file.diff).has(`${oldLine ?? ''}:${newLine ?? ''}`);
}

export interface PositionDeps {
  reads: Pick<RepositoryReads, 'diff' | 'readBlob'>;
  repositoryOf(projectId: number): Promise<RepositoryHandle | null>;
}

/** The merge requests' `checkPosition` for the notes plugin. */
export function positionChecker(deps: PositionDeps) {
  return async function checkPosition(noteable: FoundNoteable, position: Readonly<Record<string, unknown>>): Promise<void> {
    if (position.position_type !== 'text') return;
    const repository = await deps.repositoryOf(noteable.projectId);
    const base = sha(position.base_sha);
    const head = sha(position.head_sha);
    if (!repository || !base || !head) throw badRequest(INVALID_LINE);
    const files = await deps.reads.diff(repository, base, head).catch(() => []);
    if (positionInDiff(files, position)) return;
    if (!(await unfoldsTo(repository, base, fileOf(files, position), position))) throw badRequest(INVALID_LINE);
  };

  /** Whether the position is an unchanged line of a changed file, outside the hunks (GitLab unfolds the diff to it). */
  async function unfoldsTo(repository: RepositoryHandle, base: string, file: FileDiff | undefined, position: Readonly<Record<string, unknown>>) {
    const oldLine = lineNumber(position.old_line);
    const newLine = lineNumber(position.new_line);
    if (!file || file.newFile || file.deletedFile || oldLine === null || newLine === null) return false;
    const blob = await deps.reads.readBlob(repository, base, file.oldPath).catch(() => null);
    return blob !== null && unchangedOutsideHunks(file.diff, oldLine, newLine, lineCount(blob.data));
  }
}

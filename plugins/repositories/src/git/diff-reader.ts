/** File diffs between two commits, in GitLab's diff shape. */
import { git } from './git-runner.js';

export interface FileDiff {
  oldPath: string;
  newPath: string;
  aMode: string;
  bMode: string;
  newFile: boolean;
  renamedFile: boolean;
  deletedFile: boolean;
  /** The patch from its first hunk on (no `diff --git` header). */
  diff: string;
}

const mode = (value: string) => (/^0+$/.test(value) ? '0' : value);

function parseRaw(output: string) {
  const parts = output.split('\0');
  const files: Omit<FileDiff, 'diff'>[] = [];
  for (let i = 0; i < parts.length; ) {
    const head = parts[i++]!;
    if (!head.startsWith(':')) continue;
    const [aMode, bMode, , , status] = head.slice(1).split(' ');
    const letter = status!.charAt(0);
    const oldPath = parts[i++]!;
    const newPath = letter === 'R' || letter === 'C' ? parts[i++]! : oldPath;
    files.push({
      oldPath,
      newPath,
      aMode: mode(aMode!),
      bMode: mode(bMode!),
      newFile: letter === 'A',
      renamedFile: letter === 'R',
      deletedFile: letter === 'D',
    });
  }
  return files;
}

/** Splits `git diff -p` output into one patch per file, headers removed. */
function splitPatches(output: string): string[] {
  const blocks = output.split(/^diff --git /m).slice(1);
  return blocks.map((block) => {
    const lines = block.split('\n');
    const start = lines.findIndex((line) => line.startsWith('@@') || line.startsWith('Binary files'));
    if (start === -1) return '';
    const body = lines.slice(start).join('\n');
    return body.endsWith('\n') ? body : `${body}\n`;
  });
}

export async function diffCommits(gitDir: string, from: string, to: string): Promise<FileDiff[]> {
  const common = ['-M', '--no-color', '--no-ext-diff', '--ignore-submodules=none', from, to];
  const [raw, patch] = await Promise.all([
    git(gitDir, ['diff', '--raw', '-z', '--no-abbrev', ...common]),
    git(gitDir, ['diff', '-p', '--full-index', ...common]),
  ]);
  const files = parseRaw(raw.stdout.toString('utf8'));
  const patches = splitPatches(patch.stdout.toString('utf8'));
  return files.map((file, index) => ({ ...file, diff: patches[index] ?? '' }));
}

/** GitLab's Diff entity. */
import type { FileDiff } from '../git/diff-reader.js';

export function diffEntity(diff: FileDiff) {
  return {
    diff: diff.diff,
    new_path: diff.newPath,
    old_path: diff.oldPath,
    a_mode: diff.aMode,
    b_mode: diff.bMode,
    new_file: diff.newFile,
    renamed_file: diff.renamedFile,
    deleted_file: diff.deletedFile,
    generated_file: false,
  };
}

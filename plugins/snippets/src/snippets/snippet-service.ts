/**
 * GitLab's snippet rules: what a create or an update may hold, in GitLab's order and
 * texts, and the commit each one makes in the snippet's repository.
 */
import { frameworkError, longerThan, structuredError, TEXT_LIMIT, tooLongMessage, validationFailed } from '@forgekit/kernel';
import { RepositoryError, type FileAction, type GitIdentity } from '@forgekit/plugin-repositories/contracts';
import type { SnippetRow } from '../entities/snippet.js';
import type { SnippetRepository } from './snippet-repository.js';
import type { SnippetChanges, SnippetScope, SnippetStore } from './snippet-store.js';

export const SNIPPET_ACTIONS = ['create', 'update', 'delete', 'move'] as const;

export interface NewSnippetFile {
  filePath: string;
  content: string;
}

export interface SnippetFileChange {
  action: (typeof SNIPPET_ACTIONS)[number];
  filePath?: string | null;
  previousPath?: string | null;
  content?: string | null;
}

export interface SnippetAuthor {
  id: number;
  identity: GitIdentity;
}

export interface SnippetFields {
  title?: string;
  description?: string | null;
  visibilityLevel?: number;
}

export interface SnippetUpdate extends SnippetFields {
  files?: SnippetFileChange[];
  /** The deprecated single-file parameters. */
  content?: string | null;
  fileName?: string | null;
}

const TITLE_LIMIT = 255;
const MULTIPLE_FILES = 'To update Snippets with multiple files, you must use the `files` parameter';
const INVALID_ACTIONS = 'Snippet actions have invalid data';

/** GitLab's `file_path` parameter check: no directory traversal, not absolute. */
export const isValidFilePath = (path: string) => !path.startsWith('/') && !path.split(/[/\\]/).includes('..');

/** `files[0][file_path] should be a valid file path` for the first bad path of a files array. */
export function checkFilePaths(files: readonly { filePath?: string | null; previousPath?: string | null }[]): void {
  files.forEach((file, index) => {
    for (const [name, path] of [
      ['file_path', file.filePath],
      ['previous_path', file.previousPath],
    ] as const) {
      if (path && !isValidFilePath(path)) throw frameworkError(400, `files[${index}][${name}] should be a valid file path`);
    }
  });
}

function checkFields(fields: SnippetFields): void {
  const errors: Record<string, string[]> = {};
  if (fields.title !== undefined && longerThan(fields.title, TITLE_LIMIT)) errors.title = [tooLongMessage(TITLE_LIMIT)];
  if (fields.description && longerThan(fields.description, TEXT_LIMIT)) errors.description = [tooLongMessage(TEXT_LIMIT)];
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
}

/** A service failure, as GitLab's snippet endpoints answer it: `{"message":{"error":"..."}}`. */
const serviceError = (status: number, error: string) => structuredError(status, { message: { error } });

const failedCommit = (error: unknown) => {
  if (error instanceof RepositoryError) return serviceError(400, error.message);
  return error;
};

/** GitLab's `SnippetInputAction` validations. */
function validChange(change: SnippetFileChange): boolean {
  const { action, filePath, previousPath, content } = change;
  if (action !== 'create' && !filePath) return false;
  if (action === 'move' && !previousPath) return false;
  if ((action === 'create' || action === 'update') && (content === null || content === undefined)) return false;
  if (action === 'update' && previousPath && previousPath !== filePath) return false;
  if (action === 'move' && previousPath === filePath) return false;
  return true;
}

/** GitLab names a file created without a path `snippetfile<N>.txt`, N past the highest taken. */
function generatedName(taken: readonly string[], index: number): string {
  const numbers = taken
    .map((path) => /^snippetfile(\d+)\.txt$/.exec(path)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number);
  return `snippetfile${Math.max(0, ...numbers) + 1 + index}.txt`;
}

/** What else goes with a removed snippet (its notes), removed first. */
export type RemoveDependents = (snippetId: number) => Promise<void>;

export function createSnippetService(store: SnippetStore, repository: SnippetRepository, removeDependents: RemoveDependents) {
  async function refreshFileName(id: number, changes: SnippetChanges): Promise<SnippetRow> {
    const { paths } = await repository.files(id);
    await store.update(id, { ...changes, fileName: paths[0] ?? null, updatedAt: new Date() });
    return (await store.find(id))!;
  }

  return {
    find: (id: number) => store.find(id),
    byIds: (ids: readonly number[]) => store.byIds(ids),
    list: (scope: SnippetScope, limit: number, offset: number) => store.list(scope, limit, offset),
    count: (scope: SnippetScope) => store.count(scope),
    projectIds: () => store.projectIds(),

    async create(
      author: SnippetAuthor,
      input: Required<Pick<SnippetFields, 'title' | 'visibilityLevel'>> & { description: string | null; projectId: number | null; files: NewSnippetFile[] },
      storage?: string,
    ): Promise<SnippetRow> {
      checkFields(input);
      checkFilePaths(input.files);
      const now = new Date();
      const row = await store.insert({
        title: input.title,
        description: input.description,
        visibilityLevel: input.visibilityLevel,
        authorId: author.id,
        projectId: input.projectId,
        fileName: input.files[0]?.filePath ?? null,
        createdAt: now,
        updatedAt: now,
      });
      const actions: FileAction[] = input.files.map((file) => ({ action: 'create', filePath: file.filePath, content: Buffer.from(file.content) }));
      try {
        await repository.commit(row.id, actions, author.identity, 'Initial commit', storage);
      } catch (error) {
        // A snippet whose files could not be written is not kept.
        await repository.remove(row.id);
        await store.remove(row.id);
        throw failedCommit(error);
      }
      return refreshFileName(row.id, {});
    },

    async update(snippet: SnippetRow, author: SnippetAuthor, input: SnippetUpdate): Promise<SnippetRow> {
      checkFields(input);
      const { paths } = await repository.files(snippet.id);
      const usesSingleFile = (input.content !== undefined && input.content !== null) || (input.fileName !== undefined && input.fileName !== null);
      if (usesSingleFile && paths.length > 1) throw serviceError(400, MULTIPLE_FILES);

      let actions: FileAction[] = [];
      if (input.files) {
        checkFilePaths(input.files);
        if (!input.files.every(validChange)) throw serviceError(422, INVALID_ACTIONS);
        let created = 0;
        actions = input.files.map((change) => ({
          action: change.action,
          filePath: change.filePath || generatedName(paths, created++),
          previousPath: change.previousPath ?? null,
          content: change.content === null || change.content === undefined ? null : Buffer.from(change.content),
        }));
      } else if (usesSingleFile) {
        const current = paths[0];
        const target = input.fileName ?? current ?? generatedName([], 0);
        const content = input.content === null || input.content === undefined ? null : Buffer.from(input.content);
        if (!current) actions = [{ action: 'create', filePath: target, content: content ?? Buffer.alloc(0) }];
        else if (target !== current) actions = [{ action: 'move', filePath: target, previousPath: current, content }];
        else if (content) actions = [{ action: 'update', filePath: current, content }];
      }
      if (actions.length > 0) {
        try {
          await repository.commit(snippet.id, actions, author.identity, 'Update snippet');
        } catch (error) {
          throw failedCommit(error);
        }
      }
      const changes: SnippetChanges = {};
      if (input.title !== undefined) changes.title = input.title;
      if (input.description !== undefined) changes.description = input.description;
      if (input.visibilityLevel !== undefined) changes.visibilityLevel = input.visibilityLevel;
      return refreshFileName(snippet.id, changes);
    },

    /** Files changed outside the API (a push): the snippet takes its new first file and update time. */
    async filesChanged(id: number): Promise<void> {
      if (await store.find(id)) await refreshFileName(id, {});
    },

    async remove(id: number): Promise<void> {
      await removeDependents(id);
      await repository.remove(id);
      await store.remove(id);
    },

    idsOfProject: (projectId: number) => store.idsOfProject(projectId),
    idsOfAuthor: (authorId: number) => store.idsOfAuthor(authorId),
  };
}

export type SnippetService = ReturnType<typeof createSnippetService>;

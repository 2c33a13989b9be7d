/** GitLab's suggestion rules: parsing diff notes, why a suggestion cannot be applied, and applying several in one commit. */
import { apiError, forbidden, type Principal } from '@forgekit/kernel';
import type { ProjectService, UserService } from '@forgekit/plugin-core/contracts';
import type { MergeRequest, MergeRequestsService } from '@forgekit/plugin-merge-requests/contracts';
import type { Note, NotesService } from '@forgekit/plugin-notes/contracts';
import type { BranchProtection, RepositoryHandle, RepositoryReads, RepositoryWrites } from '@forgekit/plugin-repositories/contracts';
import type { SuggestionRow } from '../entities/suggestion.js';
import { linesOf, parseSuggestions } from './suggestion-parser.js';
import type { NewSuggestion, SuggestionStore } from './suggestion-store.js';

const NOT_FOUND_ONE = 'Suggestion is not applicable as the suggestion was not found.';
const NOT_FOUND_MANY = 'Suggestions are not applicable as one or more suggestions were not found.';
const FILE_NOT_FOUND = 'A file was not found.';
const NOT_SAME_BRANCH = 'Suggestions must all be on the same branch.';
const OVERLAPPING = 'Suggestions are not applicable as their lines cannot overlap.';
/** How many file contents at a commit are remembered for suggestions. */
const REMEMBERED_FILES = 500;
const DEFAULT_MESSAGE = 'Apply %{suggestions_count} suggestion(s) to %{files_count} file(s)';

interface Dependencies {
  store: SuggestionStore;
  notes: NotesService;
  mergeRequests: MergeRequestsService;
  projects: ProjectService;
  users: UserService;
  reads: RepositoryReads;
  writes: RepositoryWrites;
  protection: BranchProtection;
}

/** What a suggestion's checks need to know, read once per merge request and file. */
interface Setting {
  note: Note | null;
  mergeRequest: MergeRequest | null;
  repository: RepositoryHandle | null;
  /** The source branch's tip; null when the branch is gone. */
  head: string | null;
  file: string | null;
}

export type ShownSuggestion = SuggestionRow & { appliable: boolean };

const positionOf = (note: Note) => {
  const position = note.position ?? {};
  const path = position.new_path;
  const line = position.new_line;
  const head = position.head_sha;
  if (note.type !== 'DiffNote' || note.noteableType !== 'MergeRequest' || note.projectId === null) return null;
  if (position.position_type !== 'text' || typeof path !== 'string' || typeof line !== 'number' || typeof head !== 'string') return null;
  return { path, line, head, projectId: note.projectId };
};

export function createSuggestionService({ store, notes, mergeRequests, projects, users, reads, writes, protection }: Dependencies) {
  const repositoryOf = (projectId: number) => reads.find({ kind: 'project', containerId: projectId });
  /**
   * A file's content at a commit never changes, so contents read for suggestions are kept by
   * repository, commit and path (a few hundred, oldest dropped first): showing a page of diff
   * notes again runs no git.
   */
  const files = new Map<string, Promise<string | null>>();
  const fileAt = (repository: RepositoryHandle | null, commit: string | null, path: string): Promise<string | null> => {
    if (!repository || !commit) return Promise.resolve(null);
    const key = `${repository.id}:${commit}:${path}`;
    let file = files.get(key);
    if (!file) {
      file = reads
        .readBlob(repository, commit, path)
        .then((blob) => (blob ? blob.data.toString('utf8') : null))
        .catch(() => {
          files.delete(key);
          return null;
        });
      files.set(key, file);
      if (files.size > REMEMBERED_FILES) files.delete(files.keys().next().value!);
    }
    return file;
  };

  /**
   * Reads the settings of several suggestions in a batch: their notes (unless given), merge
   * requests and repositories once each, a branch head per merge request, a file per head and path.
   */
  async function settingsOf(suggestions: readonly SuggestionRow[], given?: ReadonlyMap<number, Note>): Promise<Map<number, Setting>> {
    const settings = new Map<number, Setting>();
    if (suggestions.length === 0) return settings;
    const distinct = (values: readonly number[]) => [...new Set(values)];
    const noteIds = distinct(suggestions.map((suggestion) => suggestion.noteId));
    const projectIds = distinct(suggestions.map((suggestion) => suggestion.projectId));
    const [noteList, mergeRequestList, repositoryList] = await Promise.all([
      Promise.all(noteIds.map(async (id) => given?.get(id) ?? (await notes.findNote(id)))),
      mergeRequests.byIds(distinct(suggestions.map((suggestion) => suggestion.mergeRequestId))),
      Promise.all(projectIds.map(repositoryOf)),
    ]);
    const notesById = new Map(noteIds.map((id, index) => [id, noteList[index] ?? null]));
    const mergeRequestsById = new Map(mergeRequestList.map((mergeRequest) => [mergeRequest.id, mergeRequest]));
    const repositories = new Map(projectIds.map((id, index) => [id, repositoryList[index] ?? null]));
    const heads = new Map(
      await Promise.all(
        mergeRequestList.map(async (mergeRequest) => {
          const repository = repositories.get(mergeRequest.projectId) ?? null;
          return [mergeRequest.id, repository ? await reads.branchHead(repository, mergeRequest.sourceBranch) : null] as const;
        }),
      ),
    );
    await Promise.all(
      suggestions.map(async (suggestion) => {
        const mergeRequest = mergeRequestsById.get(suggestion.mergeRequestId) ?? null;
        const repository = repositories.get(suggestion.projectId) ?? null;
        const head = mergeRequest && repository ? (heads.get(mergeRequest.id) ?? null) : null;
        const note = notesById.get(suggestion.noteId) ?? null;
        settings.set(suggestion.id, { note, mergeRequest, repository, head, file: await fileAt(repository, head, suggestion.filePath) });
      }),
    );
    return settings;
  }

  /** GitLab's `inapplicable_reason`, first hit wins. */
  function reasonOf(suggestion: SuggestionRow, { note, mergeRequest, head, file }: Setting): string | null {
    if (suggestion.applied) return "Can't apply this suggestion.";
    if (mergeRequest?.state === 'merged') return 'This merge request was merged. To apply this suggestion, edit this file directly.';
    if (mergeRequest?.state === 'closed') return 'This merge request is closed. To apply this suggestion, edit this file directly.';
    if (!head) return "Can't apply as the source branch was deleted.";
    const current =
      file === null
        ? null
        : linesOf(file)
            .slice(suggestion.fromLine - 1, suggestion.toLine)
            .join('');
    if (!note || current !== suggestion.fromContent) {
      return suggestion.singleLine
        ? "Can't apply as this line was changed in a more recent version."
        : "Can't apply as these lines were changed in a more recent version.";
    }
    if (suggestion.fromContent === suggestion.toContent) return 'This suggestion already matches its content.';
    if (suggestion.filePath.endsWith('.ipynb')) return "This file was modified for readability, and can't accept suggestions. Edit it directly.";
    return null;
  }

  async function commitMessage(suggestions: readonly SuggestionRow[], settings: Map<number, Setting>, files: number, user: Principal, given: string | null) {
    const message = (given || DEFAULT_MESSAGE).replaceAll('%{suggestions_count}', String(suggestions.length)).replaceAll('%{files_count}', String(files));
    const authorIds = [...new Set(suggestions.map((suggestion) => settings.get(suggestion.id)!.note!.authorId))].filter((id) => id !== user.id);
    const authors = await users.findByIds(authorIds);
    const trailers = authorIds
      .flatMap((id) => authors.filter((author) => author.id === id))
      .map((author) => `Co-authored-by: ${author.name} <${author.email}>`);
    return trailers.length === 0 ? message : `${message}\n\n${trailers.join('\n')}`;
  }

  return {
    /** Brings a note's suggestions in line with its body: on create and on update. */
    async syncNote(noteId: number): Promise<void> {
      const note = await notes.findNote(noteId);
      if (!note) return void (await store.removeForNote(noteId));
      const position = positionOf(note);
      const file = position ? await fileAt(await repositoryOf(position.projectId), position.head, position.path) : null;
      const now = new Date();
      const rows: NewSuggestion[] =
        position && file !== null
          ? parseSuggestions(note.body, file, position.line).map((parsed, index) => ({
              ...parsed,
              noteId,
              mergeRequestId: note.noteableId,
              projectId: position.projectId,
              relativeOrder: index,
              filePath: position.path,
              applied: false,
              commitId: null,
              createdAt: now,
              updatedAt: now,
            }))
          : [];
      await store.replaceForNote(noteId, rows);
    },

    /** The suggestions of the notes given, by note id, each with whether it can be applied now. */
    async ofNotes(shown: readonly Note[]): Promise<Map<number, ShownSuggestion[]>> {
      const suggestions = await store.ofNotes(shown.map((note) => note.id));
      const settings = await settingsOf(
        suggestions.filter((suggestion) => !suggestion.applied),
        new Map(shown.map((note) => [note.id, note])),
      );
      const byNote = new Map<number, ShownSuggestion[]>();
      for (const suggestion of suggestions) {
        const setting = settings.get(suggestion.id);
        const appliable = setting !== undefined && reasonOf(suggestion, setting) === null;
        byNote.set(suggestion.noteId, [...(byNote.get(suggestion.noteId) ?? []), { ...suggestion, appliable }]);
      }
      return byNote;
    },

    /** Applies the suggestions in one commit on their source branch, authored by the caller. */
    async apply(user: Principal, ids: readonly number[], given: string | null, batch: boolean): Promise<SuggestionRow[]> {
      const suggestions = await store.findMany([...new Set(ids)]);
      if (suggestions.length === 0 || (batch && suggestions.length !== ids.length)) throw apiError(404, batch ? NOT_FOUND_MANY : NOT_FOUND_ONE);
      const settings = await settingsOf(suggestions);
      for (const suggestion of suggestions) {
        const { mergeRequest } = settings.get(suggestion.id)!;
        const project = mergeRequest ? await projects.findById(mergeRequest.projectId) : undefined;
        if (!project || !(await protection.canPush(user, project, mergeRequest!.sourceBranch))) throw forbidden();
      }
      if (suggestions.some((suggestion) => !settings.get(suggestion.id)!.note)) throw apiError(400, FILE_NOT_FOUND);
      if (new Set(suggestions.map((suggestion) => suggestion.mergeRequestId)).size > 1) throw apiError(400, NOT_SAME_BRANCH);
      for (const suggestion of suggestions) {
        const reason = reasonOf(suggestion, settings.get(suggestion.id)!);
        if (reason) throw apiError(400, reason);
      }
      const byFile = new Map<string, SuggestionRow[]>();
      for (const suggestion of suggestions) byFile.set(suggestion.filePath, [...(byFile.get(suggestion.filePath) ?? []), suggestion]);
      for (const inFile of byFile.values()) {
        const sorted = [...inFile].sort((a, b) => a.fromLine - b.fromLine);
        if (sorted.some((suggestion, index) => index > 0 && suggestion.fromLine <= sorted[index - 1]!.toLine)) throw apiError(400, OVERLAPPING);
      }

      const { repository, head, mergeRequest } = settings.get(suggestions[0]!.id)!;
      const actions = [...byFile].map(([filePath, inFile]) => {
        const lines = linesOf(settings.get(inFile[0]!.id)!.file!);
        // From the bottom up, so that earlier line numbers still hold.
        for (const suggestion of [...inFile].sort((a, b) => b.fromLine - a.fromLine)) {
          lines.splice(suggestion.fromLine - 1, suggestion.toLine - suggestion.fromLine + 1, suggestion.toContent);
        }
        return { action: 'update' as const, filePath, content: Buffer.from(lines.join(''), 'utf8') };
      });
      const pusher = await writes.pusher(user);
      const message = await commitMessage(suggestions, settings, byFile.size, user, given);
      const result = await writes
        .commitFiles(repository!, { branch: mergeRequest!.sourceBranch, expectedHead: head, message, author: pusher, committer: pusher, actions }, pusher)
        .catch(() => {
          throw apiError(400, 'A file has been changed.');
        });
      await store.markApplied(
        suggestions.map((suggestion) => suggestion.id),
        result.commit,
      );
      for (const suggestion of suggestions) await notes.resolveThreadOf(settings.get(suggestion.id)!.note!, user.id);
      return suggestions.map((suggestion) => ({ ...suggestion, applied: true, commitId: result.commit }));
    },

    async removeForNote(noteId: number): Promise<void> {
      await store.removeForNote(noteId);
    },
    async removeForMergeRequest(mergeRequestId: number): Promise<void> {
      await store.removeForMergeRequest(mergeRequestId);
    },
    async removeForProject(projectId: number): Promise<void> {
      await store.removeForProject(projectId);
    },
  };
}

export type SuggestionService = ReturnType<typeof createSuggestionService>;

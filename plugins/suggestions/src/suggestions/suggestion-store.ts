/** Suggestions in the database, read and written by property. */
import type { Database } from '@forgekit/kernel';
import { SuggestionEntity, type SuggestionRow } from '../entities/suggestion.js';

export type NewSuggestion = Omit<SuggestionRow, 'id'>;

export function createSuggestionStore(database: Database) {
  return {
    /** Replaces a note's suggestions with the ones its body holds now. */
    replaceForNote: (noteId: number, rows: readonly NewSuggestion[]) =>
      database.transaction(async (tx) => {
        await database.delete(SuggestionEntity, { noteId }, { tx });
        for (const row of rows) await database.insert(SuggestionEntity, row, { tx });
      }),
    findMany: (ids: readonly number[]): Promise<SuggestionRow[]> =>
      ids.length === 0
        ? Promise.resolve([])
        : database.rows(
            database
              .from(SuggestionEntity)
              .whereIn('id', [...ids])
              .orderBy('id'),
          ),
    ofNotes: (noteIds: readonly number[]): Promise<SuggestionRow[]> =>
      noteIds.length === 0
        ? Promise.resolve([])
        : database.rows(
            database
              .from(SuggestionEntity)
              .whereIn('noteId', [...noteIds])
              .orderBy('noteId')
              .orderBy('relativeOrder'),
          ),
    markApplied: (ids: readonly number[], commitId: string) =>
      database.update(SuggestionEntity, { id: { $in: [...ids] } }, { applied: true, commitId, updatedAt: new Date() }),
    removeForNote: (noteId: number) => database.delete(SuggestionEntity, { noteId }),
    removeForMergeRequest: (mergeRequestId: number) => database.delete(SuggestionEntity, { mergeRequestId }),
    removeForProject: (projectId: number) => database.delete(SuggestionEntity, { projectId }),
  };
}

export type SuggestionStore = ReturnType<typeof createSuggestionStore>;

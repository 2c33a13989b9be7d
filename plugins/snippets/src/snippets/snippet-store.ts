/** Snippets in the database, by property. */
import type { Database } from '@forgekit/kernel';
import { SnippetEntity, type SnippetRow } from '../entities/snippet.js';

/**
 * Which snippets a list shows: a user's own; every public personal snippet; or a
 * project's, all of them (members) or those at or above a visibility plus the caller's own.
 */
export type SnippetScope =
  | { kind: 'authored'; authorId: number; createdAfter?: Date | null; createdBefore?: Date | null }
  | { kind: 'public' }
  | { kind: 'project'; projectId: number; minVisibility: number | null; authorId: number | null };

export type NewSnippet = Omit<SnippetRow, 'id'>;
export type SnippetChanges = Partial<Pick<SnippetRow, 'title' | 'description' | 'visibilityLevel' | 'fileName' | 'updatedAt'>>;

const PUBLIC = 20;

export function createSnippetStore(database: Database) {
  const ofScope = (scope: SnippetScope) => {
    const query = database.from(SnippetEntity);
    switch (scope.kind) {
      case 'authored':
        query.where('authorId', scope.authorId);
        if (scope.createdAfter) query.where('createdAt', '>', scope.createdAfter);
        if (scope.createdBefore) query.where('createdAt', '<', scope.createdBefore);
        return query;
      case 'public':
        return query.whereNull('projectId').where('visibilityLevel', PUBLIC);
      case 'project': {
        query.where('projectId', scope.projectId);
        const { minVisibility, authorId } = scope;
        if (minVisibility === null) return query;
        return query.where((w) => {
          w.where('visibilityLevel', '>=', minVisibility);
          if (authorId !== null) w.orWhere('authorId', authorId);
        });
      }
    }
  };

  return {
    list: (scope: SnippetScope, limit: number, offset: number): Promise<SnippetRow[]> =>
      database.rows(ofScope(scope).orderBy('id', 'desc').limit(limit).offset(offset)),
    count: (scope: SnippetScope): Promise<number> => database.count(ofScope(scope)),
    find: (id: number): Promise<SnippetRow | undefined> => database.row(database.from(SnippetEntity).where('id', id)),
    byIds: (ids: readonly number[]): Promise<SnippetRow[]> => database.rows(database.from(SnippetEntity).whereIn('id', ids)),
    async insert(snippet: NewSnippet): Promise<SnippetRow> {
      return { id: await database.insert(SnippetEntity, snippet), ...snippet };
    },
    update: (id: number, changes: SnippetChanges) => database.update(SnippetEntity, { id }, changes),
    remove: (id: number) => database.delete(SnippetEntity, { id }),
    async idsOfProject(projectId: number): Promise<number[]> {
      return (await database.rows(database.from(SnippetEntity).where('projectId', projectId))).map((row) => row.id);
    },
    async idsOfAuthor(authorId: number): Promise<number[]> {
      return (await database.rows(database.from(SnippetEntity).where('authorId', authorId))).map((row) => row.id);
    },
  };
}

export type SnippetStore = ReturnType<typeof createSnippetStore>;

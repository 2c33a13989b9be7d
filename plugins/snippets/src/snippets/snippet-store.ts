/** Snippets in the database, by property. */
import type { Database } from '@forgekit/kernel';
import { SnippetEntity, type SnippetRow } from '../entities/snippet.js';

/**
 * Which snippets a list shows: a user's own; every public personal snippet; or a
 * project's, all of them (members) or those at or above a visibility plus the caller's own.
 */
export type SnippetScope =
  | { kind: 'authored'; authorId: number; createdAfter?: Date | null; createdBefore?: Date | null }
  | { kind: 'public'; createdAfter?: Date | null; createdBefore?: Date | null }
  | { kind: 'project'; projectId: number; minVisibility: number | null; authorId: number | null }
  | { kind: 'available'; reader: SnippetReader | null; createdAfter?: Date | null; createdBefore?: Date | null; onlyIds?: readonly number[] | null };

/**
 * The snippets a user may read among all (`/snippets/all`): personal ones they wrote or at
 * least at `floor`; every snippet of `memberProjects`; and those of `openProjects` (visible
 * projects whose snippets feature is open to everybody) they wrote or at least at `floor`.
 */
export interface SnippetReader {
  userId: number;
  floor: number;
  memberProjects: readonly number[];
  openProjects: readonly number[];
}

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
        if (scope.createdAfter) query.where('createdAt', '>', scope.createdAfter);
        if (scope.createdBefore) query.where('createdAt', '<', scope.createdBefore);
        return query.whereNull('projectId').where('visibilityLevel', PUBLIC);
      case 'available': {
        if (scope.createdAfter) query.where('createdAt', '>', scope.createdAfter);
        if (scope.createdBefore) query.where('createdAt', '<', scope.createdBefore);
        if (scope.onlyIds) query.whereIn('id', scope.onlyIds);
        const { reader } = scope;
        if (!reader) return query;
        return query.where((w) => {
          w.where((personal) => {
            personal.whereNull('projectId').where((seen) => {
              seen.where('authorId', reader.userId).orWhere('visibilityLevel', '>=', reader.floor);
            });
          });
          if (reader.memberProjects.length > 0) w.orWhereIn('projectId', reader.memberProjects);
          if (reader.openProjects.length > 0) {
            w.orWhere((open) => {
              open.whereIn('projectId', reader.openProjects).where((seen) => {
                seen.where('authorId', reader.userId).orWhere('visibilityLevel', '>=', reader.floor);
              });
            });
          }
        });
      }
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
    /** The projects that have snippets. */
    async projectIds(): Promise<number[]> {
      const rows = await database.values(database.table(SnippetEntity).select({ projectId: 'projectId' }).distinct().whereNotNull('projectId'), {
        projectId: 'number',
      });
      return rows.map((row) => row.projectId);
    },
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

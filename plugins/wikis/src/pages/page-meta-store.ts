/** Wiki page records in the database, by property: the pages themselves live in git. */
import type { Database } from '@forgekit/kernel';
import { unlessTaken } from '@forgekit/kernel/orm';
import { WikiPageMetaEntity, type WikiPageMetaRow } from '../entities/wiki-page-meta.js';

export function createPageMetaStore(database: Database) {
  const ofProject = database.prepareRows((p) => database.from(WikiPageMetaEntity).where({ projectId: p.projectId }));
  const bySlug = database.prepareRows((p) => database.from(WikiPageMetaEntity).where({ projectId: p.projectId, slug: p.slug }));
  const byId = database.prepareRows((p) => database.from(WikiPageMetaEntity).where({ id: p.id }));

  const store = {
    findById: (id: number): Promise<WikiPageMetaRow | undefined> => byId.first({ id }),

    /** The record of a page, created on first need (two requests at once share one). */
    async ensure(projectId: number, slug: string, title: string): Promise<WikiPageMetaRow> {
      const found = await bySlug.first({ projectId, slug });
      if (found) return found;
      const now = new Date();
      await unlessTaken(database.insert(WikiPageMetaEntity, { projectId, slug, title, createdAt: now, updatedAt: now }), () => null);
      return (await bySlug.first({ projectId, slug }))!;
    },

    /** Record ids of a project's pages by slug, creating the records pages pushed over git do not have yet. */
    async idsFor(projectId: number, pages: readonly { slug: string; title: string }[]): Promise<Map<string, number>> {
      const ids = new Map((await ofProject.all({ projectId })).map((row) => [row.slug, row.id]));
      for (const page of pages) if (!ids.has(page.slug)) ids.set(page.slug, (await store.ensure(projectId, page.slug, page.title)).id);
      return ids;
    },

    /** A page renamed or retitled keeps its record (and its notes); a record left at the new slug is dropped first. */
    async move(projectId: number, from: string, to: string, title: string): Promise<void> {
      if (from !== to) await database.delete(WikiPageMetaEntity, { projectId, slug: to });
      await database.update(WikiPageMetaEntity, { projectId, slug: from }, { slug: to, title, updatedAt: new Date() });
    },

    /** Removes a page's record; answers its id, or null when it had none. */
    async remove(projectId: number, slug: string): Promise<number | null> {
      const found = await bySlug.first({ projectId, slug });
      if (!found) return null;
      await database.delete(WikiPageMetaEntity, { id: found.id });
      return found.id;
    },

    removeAllOf: (projectId: number) => database.delete(WikiPageMetaEntity, { projectId }),
  };
  return store;
}

export type PageMetaStore = ReturnType<typeof createPageMetaStore>;

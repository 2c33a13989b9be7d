import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/**
 * What the database knows of a wiki page whose content lives in git: an id that stays
 * while the page is edited or renamed (notes hang on it), and its current slug.
 */
export const WikiPageMetaEntity = defineEntity({
  name: 'WikiPageMeta',
  tableName: 'wiki_page_meta',
  uniques: [{ properties: ['projectId', 'slug'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    projectId: p.integer(),
    /** The page's path in the wiki repository without its extension. */
    slug: p.string().length(2048),
    title: p.string().length(255),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type WikiPageMetaRow = InferEntity<typeof WikiPageMetaEntity>;

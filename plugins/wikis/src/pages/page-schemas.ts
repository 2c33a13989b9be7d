/** JSON Schemas of the wiki answers (`page-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';
import { WIKI_FORMATS } from './page-paths.js';

const shownPageSchema: JsonSchema = {
  type: 'object',
  properties: { format: { enum: [...WIKI_FORMATS] }, slug: { type: 'string' }, title: { type: 'string' } },
  required: ['format', 'slug', 'title'],
};

/** `WikiPageBasic`: a page in a list without content. */
export const pageBasicSchema: JsonSchema = {
  allOf: [shownPageSchema, { type: 'object', properties: { wiki_page_meta_id: { type: 'integer' } }, required: ['wiki_page_meta_id'] }],
};

/** `WikiPage`: a page with its content (raw, or rendered HTML when asked). */
export const pageSchema: JsonSchema = {
  allOf: [
    shownPageSchema,
    {
      type: 'object',
      properties: { content: { type: 'string' }, encoding: { const: 'UTF-8' }, front_matter: { type: 'object' } },
      required: ['content', 'encoding', 'front_matter'],
    },
  ],
};

/** The list: basic pages, or whole pages with `with_content`. */
export const pageListSchema: JsonSchema = { type: 'array', items: { anyOf: [pageSchema, pageBasicSchema] } };

/** `WikiAttachment`: a file committed to the wiki. */
export const attachmentSchema: JsonSchema = {
  type: 'object',
  properties: {
    file_name: { type: 'string' },
    file_path: { type: 'string' },
    branch: { type: 'string' },
    link: { type: 'object', properties: { url: { type: 'string' }, markdown: { type: 'string' } }, required: ['url', 'markdown'] },
  },
  required: ['file_name', 'file_path', 'branch', 'link'],
};

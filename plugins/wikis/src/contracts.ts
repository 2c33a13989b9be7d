/**
 * What other plugins may use of wikis: the events of page changes (webhooks describe them).
 * Wiki pages reach notes as the `WikiPage` noteable kind of `@forgekit/plugin-notes/contracts`,
 * registered by this plugin.
 */
import { defineEvent } from '@forgekit/kernel';

export interface WikiPageChange {
  projectId: number;
  userId: number;
  slug: string;
  title: string;
  format: string;
  /** The page's text as it is now (as it was, for a removal). */
  content: string;
  /** The commit message of the change. */
  message: string;
}

export const wikiPageEvents = {
  created: defineEvent<WikiPageChange>('wiki-page.created'),
  updated: defineEvent<WikiPageChange>('wiki-page.updated'),
  deleted: defineEvent<WikiPageChange>('wiki-page.deleted'),
};

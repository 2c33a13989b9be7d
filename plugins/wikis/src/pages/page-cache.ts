/**
 * What a wiki read keeps in memory, per process and bounded (lru-cache), so that a repeated
 * read spawns no git process. Every entry is keyed by something git never changes:
 * - a commit's page list, by repository directory and commit sha;
 * - a page's text, front matter and rendered HTML, by blob id (a blob id names its bytes);
 * - a full commit sha given as `version`, by repository (id and directory);
 * - a commit's page list with content as sent (JSON), by repository directory and commit sha.
 * A write (through the API, a push over HTTP, or another process writing to the repository)
 * moves the branch, so the next read asks for a new commit: nothing cached goes stale.
 */
import { LRUCache } from 'lru-cache';
import type { StoredPage } from './page-repository.js';

/** A page's text as read: its content apart from its front matter. */
export interface PageText {
  /** The whole file. */
  text: string;
  /** The text without its front matter. */
  content: string;
  frontMatter: Record<string, unknown>;
}

export interface PageCacheLimits {
  /** Bytes (estimated) of page lists kept. */
  treeBytes: number;
  /** Bytes (estimated) of page texts kept. */
  textBytes: number;
  /** Bytes (estimated) of rendered HTML kept. */
  htmlBytes: number;
  /** Bytes (estimated) of page lists with content kept as sent. */
  listBytes: number;
}

export const DEFAULT_PAGE_CACHE_LIMITS: PageCacheLimits = {
  treeBytes: 8 * 1024 * 1024,
  textBytes: 32 * 1024 * 1024,
  htmlBytes: 16 * 1024 * 1024,
  listBytes: 16 * 1024 * 1024,
};

/** JavaScript strings take two bytes a code unit; each entry carries some fixed overhead too. */
const stringBytes = (text: string) => 64 + text.length * 2;
const pagesBytes = (pages: readonly StoredPage[]) => pages.reduce((sum, page) => sum + 160 + (page.path.length + page.slug.length) * 2, 64);
const textBytes = (page: PageText) => stringBytes(page.text) + stringBytes(page.content) + (page.content === page.text ? 0 : 128);

export function createPageCache(limits: PageCacheLimits = DEFAULT_PAGE_CACHE_LIMITS) {
  const trees = new LRUCache<string, readonly StoredPage[], () => Promise<readonly StoredPage[]>>({
    maxSize: limits.treeBytes,
    sizeCalculation: pagesBytes,
    // Concurrent first reads of one commit share one `git ls-tree`.
    fetchMethod: (_key, _stale, { context }) => context(),
  });
  const texts = new LRUCache<string, PageText>({ maxSize: limits.textBytes, sizeCalculation: textBytes });
  const html = new LRUCache<string, string>({ maxSize: limits.htmlBytes, sizeCalculation: stringBytes });
  const versions = new LRUCache<string, string>({ max: 4096 });
  const lists = new LRUCache<string, string>({ maxSize: limits.listBytes, sizeCalculation: stringBytes });

  return {
    /** The page list of a commit, loaded once. */
    async pages(gitDir: string, commit: string, load: () => Promise<readonly StoredPage[]>): Promise<readonly StoredPage[]> {
      return (await trees.fetch(`${gitDir}\0${commit}`, { context: load }))!;
    },

    text: (blobId: string) => texts.get(blobId),
    keepText: (blobId: string, page: PageText) => texts.set(blobId, page),

    html: (blobId: string, format: string) => html.get(`${format}\0${blobId}`),
    keepHtml: (blobId: string, format: string, rendered: string) => html.set(`${format}\0${blobId}`, rendered),

    /** The commit a full sha named, once git found it (an object never changes). */
    version: (repository: string, sha: string) => versions.get(`${repository}\0${sha}`),
    keepVersion: (repository: string, sha: string, commit: string) => versions.set(`${repository}\0${sha}`, commit),

    /** A commit's page list with content, as sent. */
    list: (gitDir: string, commit: string) => lists.get(`${gitDir}\0${commit}`),
    keepList: (gitDir: string, commit: string, json: string) => lists.set(`${gitDir}\0${commit}`, json),
  };
}

export type PageCache = ReturnType<typeof createPageCache>;

/**
 * GitLab's rules for wiki pages: titles become slugs and file paths, a page's format is its
 * file's extension, every change is one commit by the caller, and GitLab's validation
 * errors and commit messages.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { apiError, JsonText, notFound, unprocessable, validationFailed, type EventBus, type Principal, type UploadedFile } from '@forgekit/kernel';
import type { Project } from '@forgekit/plugin-core/contracts';
import type { NotesService } from '@forgekit/plugin-notes/contracts';
import { RepositoryError, type FileAction } from '@forgekit/plugin-repositories/contracts';
import { markdownLink, sanitizeFilename } from '@forgekit/plugin-uploads/contracts';
import { wikiPageEvents } from '../contracts.js';
import { parseFrontMatter } from './front-matter.js';
import type { PageCache, PageText } from './page-cache.js';
import type { PageMetaStore } from './page-meta-store.js';
import { pagePathOf, slugForTitle, slugProblems, titleOfSlug, type WikiFormat } from './page-paths.js';
import type { Attachment, ShownPage } from './page-presenter.js';
import type { PageRenderer } from './page-render.js';
import type { PageRepository, StoredPage, WikiSnapshot } from './page-repository.js';

export interface WikiPage extends ShownPage {
  /** The page's text without its front matter. */
  content: string;
  frontMatter: Record<string, unknown>;
  /** The blob the page was read from (null for a page just written). */
  blobId: string | null;
}

export interface PageInput {
  title?: string | null;
  content?: string | null;
  format?: WikiFormat | null;
}

const DUPLICATE = 'Duplicate page: A page with that title already exists';
const ATTACHMENTS_FOLDER = 'uploads';

/** Rails' `blank?` on a string. */
const isBlank = (text: string | null | undefined) => !text || text.trim() === '';

const shown = (page: StoredPage): ShownPage => ({ slug: page.slug, title: titleOfSlug(page.slug), format: page.format });

/** A page's text with its front matter apart. */
function splitText(text: string): PageText {
  const { frontMatter, content } = parseFrontMatter(text);
  return { text, content, frontMatter };
}

/** A page as read: its title from its front matter when that gives one. */
function readPage(page: ShownPage, { content, frontMatter }: PageText, blobId: string | null): WikiPage {
  const title = typeof frontMatter.title === 'string' && frontMatter.title !== '' ? frontMatter.title : page.title;
  return { ...page, title, content, frontMatter, blobId };
}

/** A failed commit as GitLab's validation error on `base`. */
async function asValidationError<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (error instanceof RepositoryError) throw validationFailed({ base: [error.message] });
    throw error;
  }
}

export function createPageService(
  pages: PageRepository,
  metas: PageMetaStore,
  notes: NotesService | undefined,
  events: EventBus,
  cache: PageCache,
  renderPage: PageRenderer,
) {
  /** The pages' texts: from the cache, the others read from git in one go and kept. */
  async function textsOf(snapshot: WikiSnapshot, stored: readonly StoredPage[]): Promise<PageText[]> {
    const texts = stored.map((page) => cache.text(page.blobId));
    const missing = stored.filter((_, index) => texts[index] === undefined);
    if (missing.length > 0) {
      const contents = await pages.contents(snapshot, missing);
      const read = new Map(missing.map((page, index) => [page.blobId, splitText(contents[index]!.toString('utf8'))]));
      for (const [blobId, text] of read) cache.keepText(blobId, text);
      stored.forEach((page, index) => {
        texts[index] ??= read.get(page.blobId);
      });
    }
    return texts as PageText[];
  }

  const withContents = async (snapshot: WikiSnapshot, stored: readonly StoredPage[]): Promise<WikiPage[]> => {
    const texts = await textsOf(snapshot, stored);
    return stored.map((page, index) => readPage(shown(page), texts[index]!, page.blobId));
  };
  const withContent = async (snapshot: WikiSnapshot, page: StoredPage): Promise<WikiPage> => (await withContents(snapshot, [page]))[0]!;

  /** The page, at `version` when given; GitLab's 404 when either is unknown. */
  async function found(project: Project, slug: string, version?: string | null) {
    const snapshot = await pages.snapshot(project, version);
    const page = snapshot && (await pages.page(snapshot, slug));
    if (!snapshot || !page) throw notFound('Wiki Page');
    return { snapshot, page };
  }

  function checkInput(input: { title: string | null | undefined; content: string | null | undefined }, slug: string) {
    const errors: Record<string, string[]> = {};
    if (isBlank(input.title)) errors.title = ["can't be blank"];
    if (isBlank(input.content)) errors.content = ["can't be blank"];
    if (Object.keys(errors).length > 0) throw validationFailed(errors);
    const tooLong = slugProblems(slug);
    if (tooLong) throw validationFailed(tooLong);
  }

  return {
    async list(project: Project) {
      const snapshot = (await pages.snapshot(project))!;
      return { snapshot, pages: await pages.pages(snapshot) };
    },

    async listBasic(project: Project) {
      const { pages: all } = await this.list(project);
      const listed = all.map(shown);
      const ids = await metas.idsFor(project.id, listed);
      return listed.map((page) => ({ page, metaId: ids.get(page.slug)! }));
    },

    /**
     * Every page with its content, as `present` serialises them, kept per commit: what a commit holds never
     * changes, so a repeated read of an unchanged wiki neither reads nor serialises a page.
     */
    async listWithContentJson(project: Project, present: (pages: WikiPage[]) => unknown): Promise<JsonText> {
      const { snapshot, pages: all } = await this.list(project);
      const { repository, commit } = snapshot;
      const kept = repository && commit ? cache.list(repository.gitDir, commit) : undefined;
      if (kept !== undefined) return new JsonText(kept);
      const json = JSON.stringify(present(await withContents(snapshot, all)));
      if (repository && commit) cache.keepList(repository.gitDir, commit, json);
      return new JsonText(json);
    },

    async find(project: Project, slug: string, version?: string | null): Promise<WikiPage> {
      const { snapshot, page } = await found(project, slug, version);
      return withContent(snapshot, page);
    },

    /** `render_html`: the page's content as HTML, rendered once per blob. */
    async rendered(page: WikiPage): Promise<string> {
      const kept = page.blobId ? cache.html(page.blobId, page.format) : undefined;
      if (kept !== undefined) return kept;
      const { html, final } = await renderPage(page.format, page.content);
      if (page.blobId && final) cache.keepHtml(page.blobId, page.format, html);
      return html;
    },

    async create(project: Project, user: Principal, input: { title: string; content: string; format: WikiFormat }): Promise<WikiPage> {
      const slug = slugForTitle(input.title);
      checkInput(input, slug);
      const snapshot = await pages.forWrite(project);
      if (await pages.page(snapshot, slug)) throw validationFailed({ base: [DUPLICATE] });
      const title = titleOfSlug(slug);
      const message = `${user.username} created page: ${title}`;
      await asValidationError(
        pages.commit(snapshot, user, {
          message,
          actions: [{ action: 'create', filePath: pagePathOf(slug, input.format), content: Buffer.from(input.content) }],
        }),
      );
      await metas.ensure(project.id, slug, title);
      await events.emit(wikiPageEvents.created, { projectId: project.id, userId: user.id, slug, title, format: input.format, content: input.content, message });
      return readPage({ slug, title, format: input.format }, splitText(input.content), null);
    },

    async update(project: Project, user: Principal, slug: string, input: PageInput): Promise<WikiPage> {
      const { page } = await found(project, slug);
      const snapshot = await pages.forWrite(project);
      const current = shown(page);
      const newSlug = isBlank(input.title) ? slug : slugForTitle(input.title!, slug);
      const content = input.content ?? (await textsOf(snapshot, [page]))[0]!.text;
      checkInput({ title: input.title ?? current.title, content }, newSlug);
      if (newSlug !== slug && (await pages.page(snapshot, newSlug))) throw validationFailed({ base: [DUPLICATE] });
      const format = input.format ?? page.format;
      const path = pagePathOf(newSlug, format);
      const bytes = Buffer.from(content);
      const action: FileAction =
        path === page.path ? { action: 'update', filePath: path, content: bytes } : { action: 'move', filePath: path, previousPath: page.path, content: bytes };
      const title = titleOfSlug(newSlug);
      const message = `${user.username} updated page: ${title}`;
      await asValidationError(pages.commit(snapshot, user, { message, actions: [action] }));
      await metas.move(project.id, slug, newSlug, title);
      await events.emit(wikiPageEvents.updated, { projectId: project.id, userId: user.id, slug: newSlug, title, format, content, message });
      return readPage({ slug: newSlug, title, format }, splitText(content), null);
    },

    async remove(project: Project, user: Principal, slug: string): Promise<void> {
      const { snapshot: before, page } = await found(project, slug);
      const [text] = await textsOf(before, [page]);
      const snapshot = await pages.forWrite(project);
      const message = `${user.username} deleted page: ${titleOfSlug(slug)}`;
      try {
        await pages.commit(snapshot, user, {
          message,
          actions: [{ action: 'delete', filePath: page.path }],
        });
      } catch (error) {
        if (error instanceof RepositoryError) throw unprocessable(error.message);
        throw error;
      }
      const metaId = await metas.remove(project.id, slug);
      if (metaId !== null) await notes?.removeAllFor('WikiPage', metaId);
      await events.emit(wikiPageEvents.deleted, {
        projectId: project.id,
        userId: user.id,
        slug,
        title: titleOfSlug(slug),
        format: page.format,
        content: text!.text,
        message,
      });
    },

    /** Commits an uploaded file under `uploads/<32 hex>/` of the wiki, on `branch` or the default branch. */
    async attach(project: Project, user: Principal, file: UploadedFile, branch?: string | null): Promise<Attachment> {
      const fileName = sanitizeFilename(file.filename);
      const filePath = `${ATTACHMENTS_FOLDER}/${randomBytes(16).toString('hex')}/${fileName}`;
      const snapshot = await pages.forWrite(project);
      const target = branch ?? snapshot.branch;
      try {
        await pages.commit(snapshot, user, {
          message: `Upload attachment ${fileName}`,
          branch: target,
          actions: [{ action: 'create', filePath, content: await readFile(file.path) }],
        });
      } catch (error) {
        if (error instanceof RepositoryError) throw apiError(400, error.message);
        throw error;
      }
      return { fileName, filePath, branch: target, markdown: markdownLink(fileName, filePath) };
    },

    /** A wiki page's record for its notes, or null. */
    findMeta: (id: number) => metas.findById(id),
    removeAllOf: (projectId: number) => metas.removeAllOf(projectId),
  };
}

export type PageService = ReturnType<typeof createPageService>;

import { kernelServices, definePlugin, notFound } from '@forgekit/kernel';
import { coreAccessRef, coreEvents, coreProjectsRef } from '@forgekit/plugin-core/contracts';
import { notesServiceRef } from '@forgekit/plugin-notes/contracts';
import { repositoryReadRef, repositoryWriteRef } from '@forgekit/plugin-repositories/contracts';
import { WikiPageMetaEntity } from './entities/wiki-page-meta.js';
import { init } from './migrations/202611271110-init.js';
import { createAsciidocRenderer } from './pages/asciidoc-renderer.js';
import { createPageCache } from './pages/page-cache.js';
import { createPageMetaStore } from './pages/page-meta-store.js';
import { createPageRenderer } from './pages/page-render.js';
import { createPageRepository } from './pages/page-repository.js';
import { pageRoutes } from './pages/page-routes.js';
import { createPageService } from './pages/page-service.js';
import { createWikiAccess } from './pages/wiki-access.js';

/**
 * Project wikis: each wiki is a git repository (`<project>.wiki.git`, cloned and pushed over
 * the repositories plugin's smart HTTP) whose pages are files named by slug; the API reads
 * them from git and commits every change as the caller.
 */
export const wikisPlugin = definePlugin({
  id: 'wikis',
  compatibility: '^0.1.0',
  entities: [WikiPageMetaEntity],
  migrations: [init],
  requires: [coreAccessRef, coreProjectsRef, repositoryReadRef, repositoryWriteRef],
  optional: [notesServiceRef],
  register(ctx) {
    const notes = ctx.resolveOptional(notesServiceRef);
    // Page lists, texts and HTML kept per commit and blob, in this process: see page-cache.ts.
    const cache = createPageCache();
    const pages = createPageRepository(ctx.resolve(repositoryReadRef), ctx.resolve(repositoryWriteRef), cache);
    // AsciiDoc renders in a worker thread, stopped with the server: see asciidoc-renderer.ts.
    const asciidoc = createAsciidocRenderer();
    ctx.lifecycle.onStop(() => asciidoc.close());
    const render = createPageRenderer(asciidoc);
    const service = createPageService(pages, createPageMetaStore(ctx.resolve(kernelServices.database)), notes, ctx.events, cache, render);
    const wikiAccess = createWikiAccess(ctx.resolve(coreAccessRef), ctx.resolve(coreProjectsRef));
    ctx.routes(...pageRoutes(service, wikiAccess));

    // `/projects/:id/wiki_pages/:wiki_page_meta_id/notes`, as GitLab's notes API serves wiki pages.
    notes?.registerNoteable('WikiPage', 'wiki_pages', async (user, projectIdOrPath, noteableId) => {
      const { project } = await wikiAccess(user, projectIdOrPath, 'read');
      const meta = /^\d{1,15}$/.test(noteableId) ? await service.findMeta(Number(noteableId)) : undefined;
      if (!meta || meta.projectId !== project.id) throw notFound('WikiPage::Meta');
      return { id: meta.id, iid: null, projectId: project.id };
    });

    // The wiki repository itself goes with the project's other repositories (repositories plugin).
    ctx.events.on(coreEvents.projectDeleted, async ({ projectId }) => {
      await service.removeAllOf(projectId);
    });
  },
});

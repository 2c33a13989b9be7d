import { kernelServices, definePlugin, notFound } from '@forgekit/kernel';
import { coreAccessRef, coreEvents, coreProjectsRef, coreUsersRef } from '@forgekit/plugin-core/contracts';
import { notesServiceRef } from '@forgekit/plugin-notes/contracts';
import { gitPathsRef, repositoryPlacementRef, repositoryReadRef, repositoryWriteRef } from '@forgekit/plugin-repositories/contracts';
import { SnippetEntity } from './entities/snippet.js';
import { init } from './migrations/202611271100-init.js';
import { personalSnippetRoutes } from './snippets/personal-snippet-routes.js';
import { projectSnippetRoutes } from './snippets/project-snippet-routes.js';
import { canReadInProject, createSnippetAccess } from './snippets/snippet-access.js';
import { snippetAnswers } from './snippets/snippet-answers.js';
import { snippetDescriber } from './snippets/snippet-describer.js';
import { snippetGitPaths } from './snippets/snippet-git-paths.js';
import { createSnippetRepository } from './snippets/snippet-repository.js';
import { createSnippetService } from './snippets/snippet-service.js';
import { createSnippetStore } from './snippets/snippet-store.js';

/** Personal and project snippets, each a git repository on a repository storage; project snippets take notes. */
export const snippetsPlugin = definePlugin({
  id: 'snippets',
  compatibility: '^0.1.0',
  entities: [SnippetEntity],
  migrations: [init],
  requires: [coreAccessRef, coreUsersRef, coreProjectsRef, repositoryReadRef, repositoryWriteRef, repositoryPlacementRef, gitPathsRef, notesServiceRef],
  register(ctx) {
    const database = ctx.resolve(kernelServices.database);
    const users = ctx.resolve(coreUsersRef);
    const projects = ctx.resolve(coreProjectsRef);
    const notes = ctx.resolve(notesServiceRef);
    const writes = ctx.resolve(repositoryWriteRef);
    const repository = createSnippetRepository(ctx.resolve(repositoryReadRef), writes);
    const service = createSnippetService(createSnippetStore(database), repository, (id) => notes.removeAllFor('Snippet', id));
    const access = createSnippetAccess(ctx.resolve(coreAccessRef), projects);
    const answers = snippetAnswers({ users, projects, repository, writes });

    const placement = ctx.resolve(repositoryPlacementRef);
    const onStorage = (storage: string) => placement.containersOnStorage('snippet', storage);
    ctx.routes(...personalSnippetRoutes({ service, access, answers, onStorage }), ...projectSnippetRoutes({ service, access, answers }));

    notes.registerNoteable('Snippet', 'snippets', async (user, projectIdOrPath, noteableId) => {
      const reached = await access.project(user, projectIdOrPath);
      const id = Number(noteableId);
      const snippet = Number.isSafeInteger(id) ? await service.find(id) : undefined;
      if (!snippet || snippet.projectId !== reached.project.id || !canReadInProject(user, snippet, reached)) throw notFound('Snippet');
      return { id: snippet.id, iid: null, projectId: reached.project.id };
    });
    writes.describeContainers('snippet', snippetDescriber(service, projects));
    ctx.resolve(gitPathsRef).addContainerResolver(snippetGitPaths(service, access));
    // A push changes the files: what the API shows of them follows.
    writes.onRefsUpdated(async ({ repository }) => {
      if (repository.kind === 'snippet') await service.filesChanged(repository.containerId);
    });

    const removeAll = async (ids: number[]) => {
      for (const id of ids) await service.remove(id);
    };
    ctx.events.on(coreEvents.projectDeleted, async ({ projectId }) => removeAll(await service.idsOfProject(projectId)));
    ctx.events.on(coreEvents.userDeleted, async ({ userId }) => removeAll(await service.idsOfAuthor(userId)));
  },
});

/**
 * Snippet repositories over git's smart HTTP: `/snippets/<id>.git` and
 * `/<project path>/snippets/<id>.git`, readable as the snippet is and pushable by whoever
 * may update it (its author, or a Maintainer of its project).
 */
import type { Principal } from '@forgekit/kernel';
import type { GitContainer, GitContainerResolver } from '@forgekit/plugin-repositories/contracts';
import { canChangeInProject, canReadInProject, canReadPersonal, type SnippetAccess, type SnippetProject } from './snippet-access.js';
import type { SnippetService } from './snippet-service.js';

const SNIPPET_PATH = /^(?:(.+)\/)?snippets\/(\d{1,15})$/;

export function snippetGitPaths(service: SnippetService, access: SnippetAccess): GitContainerResolver {
  const hidden = (id: number): GitContainer => ({ key: { kind: 'snippet', containerId: id }, visible: false, canDownload: false, canPush: false });

  async function reach(user: Principal | null, projectPath: string): Promise<SnippetProject | null> {
    try {
      return await access.project(user, projectPath);
    } catch {
      return null;
    }
  }

  return async (path, user) => {
    const match = SNIPPET_PATH.exec(path);
    if (!match) return null;
    const [, projectPath, idText] = match;
    const snippet = await service.find(Number(idText));
    // Not a snippet's path after all: a project may be called `snippets/<n>`.
    if (!snippet || (snippet.projectId == null) !== (projectPath === undefined)) return null;
    const key = { kind: 'snippet' as const, containerId: snippet.id };
    if (projectPath === undefined) {
      const visible = canReadPersonal(user, snippet);
      return { key, visible, canDownload: visible, canPush: visible && !!user && snippet.authorId === user.id };
    }
    const reached = await reach(user, projectPath);
    if (!reached || reached.project.id !== snippet.projectId || !canReadInProject(user, snippet, reached)) return hidden(snippet.id);
    return { key, visible: true, canDownload: true, canPush: !!user && canChangeInProject(user, snippet, reached) };
  };
}

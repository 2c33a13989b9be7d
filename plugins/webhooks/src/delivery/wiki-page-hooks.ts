/** Wiki page changes as GitLab's wiki page hooks (`create`, `update`, `delete`). */
import type { EventBus } from '@forgekit/kernel';
import type { ProjectService, UserService } from '@forgekit/plugin-core/contracts';
import { wikiPageEvents, type WikiPageChange } from '@forgekit/plugin-wikis/contracts';
import type { HookRequest } from '../contracts.js';
import { hookUser, projectBlocks } from './hook-attributes.js';

export interface WikiPageHookDeps {
  events: EventBus;
  projects: ProjectService;
  users: UserService;
  externalUrl: string;
  publish(request: HookRequest): Promise<void>;
}

export function listenToWikiPages(deps: WikiPageHookDeps) {
  const hook = (action: string) => async (change: WikiPageChange) => {
    const project = await deps.projects.findById(change.projectId);
    if (!project) return;
    const { project: projectBlock } = projectBlocks(project, deps.externalUrl);
    const wikiUrl = `${projectBlock.web_url}/-/wikis`;
    await deps.publish({
      trigger: 'wiki_page_events',
      projectId: project.id,
      groupId: null,
      payload: {
        object_kind: 'wiki_page',
        user: hookUser(await deps.users.findById(change.userId)),
        project: projectBlock,
        wiki: {
          web_url: `${wikiUrl}/home`,
          git_ssh_url: projectBlock.git_ssh_url.replace(/\.git$/, '.wiki.git'),
          git_http_url: projectBlock.git_http_url.replace(/\.git$/, '.wiki.git'),
          path_with_namespace: `${projectBlock.path_with_namespace}.wiki`,
          default_branch: projectBlock.default_branch,
        },
        object_attributes: {
          title: change.title,
          content: change.content,
          format: change.format,
          message: change.message,
          slug: change.slug,
          url: `${wikiUrl}/${change.slug}`,
          action,
        },
      },
    });
  };
  deps.events.on(wikiPageEvents.created, hook('create'));
  deps.events.on(wikiPageEvents.updated, hook('update'));
  deps.events.on(wikiPageEvents.deleted, hook('delete'));
}

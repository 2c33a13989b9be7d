/** Snippets as the repository storage moves show them (GitLab's basic snippet entity). */
import type { Project, ProjectService } from '@forgekit/plugin-core/contracts';
import type { ContainerDescriber } from '@forgekit/plugin-repositories/contracts';
import { visibilityName } from '@forgekit/plugin-core/contracts';
import { snippetLinks } from './snippet-presenter.js';
import type { SnippetService } from './snippet-service.js';

export function snippetDescriber(service: SnippetService, projects: ProjectService): ContainerDescriber {
  return {
    exists: async (id) => !!(await service.find(id)),
    async present(ids, externalUrl) {
      const snippets = await service.byIds(ids);
      const answers = new Map<number, Record<string, unknown>>();
      for (const snippet of snippets) {
        const project: Project | null = snippet.projectId == null ? null : ((await projects.findById(snippet.projectId)) ?? null);
        const links = snippetLinks(snippet, project, externalUrl);
        answers.set(snippet.id, {
          id: snippet.id,
          title: snippet.title,
          description: snippet.description,
          visibility: visibilityName(snippet.visibilityLevel),
          updated_at: snippet.updatedAt,
          created_at: snippet.createdAt,
          project_id: snippet.projectId,
          web_url: links.web,
          raw_url: `${links.web}/raw`,
          ssh_url_to_repo: links.ssh,
          http_url_to_repo: links.http,
        });
      }
      return answers;
    },
  };
}

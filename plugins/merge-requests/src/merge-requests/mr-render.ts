/** `render_html`: a merge request's title and description as HTML, with the references they make linked. */
import { findReferences, type Reference, type ReferenceLink, renderMarkdown } from '@forgekit/markdown';
import type { Principal } from '@forgekit/kernel';
import type { Project, ProjectService, UserService } from '@forgekit/plugin-core/contracts';
import type { IssuesService } from '@forgekit/plugin-issues/contracts';
import { projectWebUrl } from '@forgekit/plugin-repositories/contracts';
import type { LabelsService } from '@forgekit/plugin-labels/contracts';
import type { MilestonesService } from '@forgekit/plugin-milestones/contracts';
import type { MergeRequestRow } from '../entities/merge-request.js';
import type { MergeRequestStore } from './mr-store.js';

export interface RenderDeps {
  store: MergeRequestStore;
  users: UserService;
  projects: ProjectService;
  labels: LabelsService;
  milestones: MilestonesService;
  /** Without the issues plugin, issue references stay text. */
  issues?: IssuesService;
}

export function createMergeRequestRenderer(deps: RenderDeps) {
  /** Where one reference points, or undefined when it names nothing in this project. */
  async function linkOf(reference: Reference, project: Project, externalUrl: string, user: Principal | null): Promise<ReferenceLink | undefined> {
    const projectUrl = projectWebUrl(externalUrl, project);
    switch (reference.kind) {
      case 'issue': {
        // The caller's view of the issue: one they may not read (confidential, say) stays text.
        const issue = await deps.issues?.findForUser(user, String(project.id), reference.key).catch(() => undefined);
        return issue ? { href: `${projectUrl}/-/issues/${issue.iid}`, title: issue.title } : undefined;
      }
      case 'merge_request': {
        const mr = await deps.store.findByIid(project.id, Number(reference.key));
        return mr ? { href: `${projectUrl}/-/merge_requests/${mr.iid}`, title: mr.title } : undefined;
      }
      case 'label': {
        const [label] = await deps.labels.forProject(project.id, [reference.key]);
        return label
          ? { href: `${projectUrl}/-/merge_requests?label_name=${encodeURIComponent(label.title)}`, title: label.description ?? undefined }
          : undefined;
      }
      case 'milestone': {
        const ids = await deps.milestones.idsForFilter({ projectIds: [project.id], groupIds: [] }, { title: reference.key });
        const [milestone] = await deps.milestones.byIds(ids.slice(0, 1));
        return milestone?.webUrl ? { href: milestone.webUrl, title: milestone.title } : undefined;
      }
      case 'user': {
        const user = await deps.users.findByUsername(reference.key);
        return user ? { href: `${externalUrl}/${user.username}`, title: user.name } : undefined;
      }
      default:
        // Snippet references stay text: no contract offers a snippet lookup.
        return undefined;
    }
  }

  async function render(text: string, project: Project, externalUrl: string, user: Principal | null): Promise<string> {
    const links = new Map<string, ReferenceLink>();
    for (const reference of findReferences(text)) {
      if (links.has(reference.text)) continue;
      const link = await linkOf(reference, project, externalUrl, user);
      if (link) links.set(reference.text, link);
    }
    return renderMarkdown(text, { links });
  }

  return async function renderFields(mr: MergeRequestRow, externalUrl: string, user: Principal | null) {
    const project = await deps.projects.findById(mr.projectId);
    if (!project) return { title_html: '', description_html: '' };
    return {
      // GitLab renders titles on one line: no paragraph around them.
      title_html: (await render(mr.title, project, externalUrl, user)).replace(/^<p>([\s\S]*)<\/p>\n?$/, '$1'),
      description_html: await render(mr.description ?? '', project, externalUrl, user),
    };
  };
}

export type RenderMergeRequest = ReturnType<typeof createMergeRequestRenderer>;

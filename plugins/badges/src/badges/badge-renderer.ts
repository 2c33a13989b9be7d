/**
 * Placeholder values of one project, read when a badge URL names them: the project's names and
 * paths, its top-level group, the server and Pages hosts, and from its repository (through the
 * repositories plugin's read contract, when the host composes it) the default branch's head
 * commit and the latest tag.
 */
import type { GroupService } from '@forgekit/plugin-core/contracts';
import type { RepositoryHandle, RepositoryReads } from '@forgekit/plugin-repositories/contracts';
import { topGroupNameOf, type BadgeProject } from '../shared/core-fields.js';
import { memoized, type PlaceholderName, type PlaceholderValues } from './placeholders.js';

export interface RendererDeps {
  groups: GroupService;
  /** Absent when the host does not compose the repositories plugin: repository placeholders then have no value. */
  repos?: RepositoryReads;
  /** The Pages host (`%{service_pages_domain}`), or null when none is configured. */
  pagesHost: () => Promise<string | null>;
}

/** The most recently updated tag: the one whose commit is newest, by name among equals (the tags API's `order_by=updated`). */
export function latestTagName(tags: readonly { name: string; committedDate: string }[]): string | null {
  let latest: { name: string; at: number } | null = null;
  for (const tag of tags) {
    const at = Date.parse(tag.committedDate);
    if (!latest || at > latest.at || (at === latest.at && tag.name.localeCompare(latest.name) < 0)) latest = { name: tag.name, at };
  }
  return latest?.name ?? null;
}

/** The host of the server's external URL, parsed once per URL (the URL is the same on nearly every request). */
let lastHost: { url: string; hostname: string } | undefined;
function hostnameOf(url: string): string {
  if (lastHost?.url !== url) lastHost = { url, hostname: new URL(url).hostname };
  return lastHost.hostname;
}

/** The values of `project`'s placeholders for one request, each looked up once and only when a URL names it. */
export function placeholderValuesOf(deps: RendererDeps, project: BadgeProject, externalUrl: string): PlaceholderValues {
  const { repos } = deps;
  let repository: Promise<RepositoryHandle | null> | undefined;
  const repositoryOf = () => (repository ??= repos ? repos.find({ kind: 'project', containerId: project.id }) : Promise.resolve(null));
  const defaultBranch = async () => {
    if (project.defaultBranch) return project.defaultBranch;
    const found = await repositoryOf();
    return found && repos ? repos.headBranch(found) : null;
  };

  const compute = async (name: PlaceholderName): Promise<string | null> => {
    switch (name) {
      case 'project_path':
        return project.fullPath;
      case 'project_title':
        return project.name;
      case 'project_name':
        return project.path;
      case 'project_id':
        return String(project.id);
      case 'project_namespace':
        return project.namespaceFullPath;
      case 'group_name':
        return topGroupNameOf(deps.groups, project);
      case 'service_server':
        return hostnameOf(externalUrl);
      case 'service_pages_domain':
        return deps.pagesHost();
      case 'default_branch':
        return defaultBranch();
      case 'commit_sha': {
        const [found, branch] = await Promise.all([repositoryOf(), defaultBranch()]);
        return found && branch && repos ? repos.branchHead(found, branch) : null;
      }
      case 'latest_tag': {
        const found = await repositoryOf();
        return found && repos ? latestTagName(await repos.listRefs(found, 'tags')) : null;
      }
    }
  };
  return memoized(compute);
}

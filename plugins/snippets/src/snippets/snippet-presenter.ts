/** Snippets as GitLab answers them, with the URL shapes of personal and project snippets. */
import { userBasic, visibilityName, type Project, type User } from '@forgekit/plugin-core/contracts';
import type { SnippetRow } from '../entities/snippet.js';
import type { SnippetFiles } from './snippet-repository.js';

export interface SnippetLinks {
  web: string;
  http: string;
  ssh: string;
}

/** Where a snippet lives on the web and in git: `/-/snippets/<id>` or `/<project>/-/snippets/<id>`. */
export function snippetLinks(snippet: Pick<SnippetRow, 'id'>, project: Pick<Project, 'path' | 'namespace'> | null, externalUrl: string): SnippetLinks {
  const prefix = project ? `/${project.namespace.fullPath}/${project.path}` : '';
  const host = new URL(externalUrl).hostname;
  const repoPath = `${prefix.slice(1)}${prefix ? '/' : ''}snippets/${snippet.id}.git`;
  return { web: `${externalUrl}${prefix}/-/snippets/${snippet.id}`, http: `${externalUrl}/${repoPath}`, ssh: `git@${host}:${repoPath}` };
}

const fileUrl = (links: SnippetLinks, ref: string, path: string) =>
  `${links.web}/raw/${encodeURIComponent(ref)}/${path.split('/').map(encodeURIComponent).join('/')}`;

export interface SnippetPresentation {
  snippet: SnippetRow;
  author: User | undefined;
  project: Project | null;
  externalUrl: string;
  /** Given for a single snippet's answer: adds `files` and the repository URLs. */
  files?: SnippetFiles;
}

export function presentSnippet({ snippet, author, project, externalUrl, files }: SnippetPresentation): Record<string, unknown> {
  const links = snippetLinks(snippet, project, externalUrl);
  const body: Record<string, unknown> = {
    id: snippet.id,
    title: snippet.title,
    description: snippet.description,
    visibility: visibilityName(snippet.visibilityLevel),
    author: author ? userBasic(author, externalUrl) : null,
    created_at: snippet.createdAt,
    updated_at: snippet.updatedAt,
    project_id: snippet.projectId,
    web_url: links.web,
    raw_url: `${links.web}/raw`,
    file_name: files ? (files.paths[0] ?? null) : snippet.fileName,
    imported: false,
    imported_from: 'none',
  };
  if (files) {
    body.expires_at = null;
    body.ssh_url_to_repo = links.ssh;
    body.http_url_to_repo = links.http;
    body.files = files.paths.map((path) => ({ path, raw_url: fileUrl(links, files.ref, path) }));
  }
  return body;
}

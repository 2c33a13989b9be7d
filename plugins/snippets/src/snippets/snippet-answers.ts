/** What every snippet route answers with: snippets with their authors and projects, and raw files. */
import { contentDisposition, notFound, raw, frameworkError, type Principal, type RequestContext } from '@forgekit/kernel';
import type { Project, ProjectService, UserService } from '@forgekit/plugin-core/contracts';
import type { RepositoryWrites } from '@forgekit/plugin-repositories/contracts';
import type { SnippetRow } from '../entities/snippet.js';
import type { SnippetRepository } from './snippet-repository.js';
import { presentSnippet } from './snippet-presenter.js';
import { isValidFilePath, type SnippetAuthor } from './snippet-service.js';

export interface AnswerDeps {
  users: UserService;
  projects: ProjectService;
  repository: SnippetRepository;
  writes: RepositoryWrites;
}

/** A raw file as `send_git_blob` sends it: inline, with Rails' `Content-Disposition` for its base name. */
const textFile = (path: string, data: Buffer) =>
  raw(200, data, 'text/plain; charset=utf-8', {
    'Content-Disposition': contentDisposition('inline', path.slice(path.lastIndexOf('/') + 1)),
    'Cache-Control': 'max-age=0, private, must-revalidate, no-store, no-cache',
  });

export function snippetAnswers({ users, projects, repository, writes }: AnswerDeps) {
  return {
    /** The caller as the author of a commit. */
    async author(user: Principal): Promise<SnippetAuthor> {
      const pusher = await writes.pusher(user);
      return { id: user.id, identity: { name: pusher.name, email: pusher.email } };
    },

    /** One snippet with its files and repository URLs. */
    async one(ctx: RequestContext, snippet: SnippetRow, project: Project | null) {
      const [author, files] = await Promise.all([users.findById(snippet.authorId), repository.files(snippet.id)]);
      return presentSnippet({ snippet, author, project, externalUrl: ctx.externalUrl, files });
    },

    /** A page of snippets, their authors and projects read once each. */
    async many(ctx: RequestContext, snippets: SnippetRow[], known: Project | null = null) {
      const authorIds = [...new Set(snippets.map((snippet) => snippet.authorId))];
      const projectIds = [...new Set(snippets.flatMap((snippet) => (snippet.projectId != null && snippet.projectId !== known?.id ? [snippet.projectId] : [])))];
      const [authors, found] = await Promise.all([users.findByIds(authorIds), Promise.all(projectIds.map((id) => projects.findById(id)))]);
      const authorById = new Map(authors.map((user) => [user.id, user]));
      const projectById = new Map<number, Project>(found.flatMap((project) => (project ? [[project.id, project] as const] : [])));
      if (known) projectById.set(known.id, known);
      return snippets.map((snippet) =>
        presentSnippet({
          snippet,
          author: authorById.get(snippet.authorId),
          project: snippet.projectId == null ? null : (projectById.get(snippet.projectId) ?? null),
          externalUrl: ctx.externalUrl,
        }),
      );
    },

    /** `GET .../raw`: the first file; an empty repository answers an empty attachment. */
    async raw(snippet: SnippetRow) {
      const first = await repository.first(snippet.id);
      if (!first) return raw(200, '', 'text/plain; charset=utf-8', { 'Content-Disposition': 'attachment' });
      return textFile(first.path, first.data);
    },

    /** `GET .../files/:ref/:file_path/raw`. */
    async file(snippet: SnippetRow, ref: string, path: string) {
      if (!isValidFilePath(path)) throw frameworkError(400, 'file_path should be a valid file path');
      const file = await repository.read(snippet.id, ref, path);
      if (file.found === 'ref') throw notFound('Reference');
      if (file.found === 'file') throw notFound('File');
      return textFile(file.path, file.data);
    },
  };
}

export type SnippetAnswers = ReturnType<typeof snippetAnswers>;

/**
 * Clone and push over git's smart HTTP protocol at `/<namespace>/<project>.git`
 * (and `<project>.wiki.git`), served by git's own upload-pack and receive-pack in
 * stateless-RPC mode. Tokens come as HTTP Basic passwords.
 */
import { gunzipSync } from 'node:zlib';
import { defineRoute, f, frameworkError, params, raw, type RequestContext, type Route } from '@forgekit/kernel';
import type { ProjectService } from '@forgekit/plugin-core';
import { git, gitService } from '../git/git-runner.js';
import { ZERO_SHA } from '../git/ref-names.js';
import { READ_ONLY_MESSAGE } from '../git/repository-error.js';
import type { ProjectRepositories } from '../shared/project-repository.js';
import { adoptDefaultBranch } from '../shared/route-deps.js';
import type { RepositoryHandle, RepositoryService } from '../storage/repository-service.js';
import { createGitAccess, forbiddenText, GitHttpRefusal, type RepositoryTarget } from './git-access.js';
import { declinedPush, FLUSH, pktLine, readPushRequest } from './pkt-line.js';

/**
 * GitLab allows groups twenty levels deep. One route per depth (rather than a catch-all)
 * keeps `/api/v4` and the not-found answer untouched.
 */
const MAX_NAMESPACE_DEPTH = 20;
const SERVICES = ['git-upload-pack', 'git-receive-pack'] as const;
type GitService = (typeof SERVICES)[number];

const NO_CACHE = { 'Cache-Control': 'no-cache, max-age=0, must-revalidate', Pragma: 'no-cache', Expires: 'Fri, 01 Jan 1980 00:00:00 GMT' };

interface Target {
  fullPath: string;
  target: RepositoryTarget;
}

/** `group/sub/project.git` → the project path and whether the wiki is meant; null for other URLs. */
function targetOf(ctx: RequestContext, depth: number): Target | null {
  const repo = ctx.params[`s${depth}`]!;
  if (!repo.endsWith('.git')) return null;
  const wiki = repo.endsWith('.wiki.git');
  const name = repo.slice(0, wiki ? -'.wiki.git'.length : -'.git'.length);
  if (!name) return null;
  const namespace = Array.from({ length: depth }, (_, i) => ctx.params[`s${i}`]!);
  return { fullPath: [...namespace, name].join('/'), target: wiki ? 'wiki' : 'project' };
}

export function gitHttpRoutes(options: { access: Parameters<typeof createGitAccess>[0]; projects: ProjectService; repos: RepositoryService; projectRepos: ProjectRepositories }): Route[] {
  const { projects, repos, projectRepos } = options;
  const gitAccess = createGitAccess(options.access, projects);

  /** The repository a request addresses, after the access rules for `service`. */
  async function open(ctx: RequestContext, depth: number, service: GitService): Promise<{ repository: RepositoryHandle; target: Target; projectId: number }> {
    const target = targetOf(ctx, depth);
    if (!target) throw frameworkError(404, '404 Not Found');
    const push = service === 'git-receive-pack';
    gitAccess.checkScopes(ctx.credential, push ? 'push' : 'download');
    const projectAccess = await gitAccess.project(ctx.user, target.fullPath);
    const { project } = projectAccess;
    const key = { kind: target.target, containerId: project.id };
    if (push) {
      const readOnly = !!(await repos.find(key))?.readOnly;
      gitAccess.checkPush(ctx.user, projectAccess, target.target, readOnly);
    } else gitAccess.checkDownload(ctx.user, projectAccess, target.target);
    const repository = await repos.ensure(key, { storage: project.repository_storage, defaultBranch: project.default_branch ?? 'main' });
    return { repository, target, projectId: project.id };
  }

  const refusal = (error: unknown) => {
    if (error instanceof GitHttpRefusal) return error.reply;
    throw error;
  };

  const protocolEnv = (ctx: RequestContext): Record<string, string> => {
    const protocol = ctx.header('git-protocol');
    return protocol && /^[\w=:.-]+$/.test(protocol) ? { GIT_PROTOCOL: protocol } : {};
  };

  const requestBody = (ctx: RequestContext) => {
    const body = ctx.body ?? Buffer.alloc(0);
    const encoding = (ctx.header('content-encoding') ?? '').toLowerCase();
    return encoding === 'gzip' || encoding === 'x-gzip' ? gunzipSync(body) : body;
  };

  async function advertise(ctx: RequestContext, depth: number, service: string | null | undefined) {
    if (!service || !(SERVICES as readonly string[]).includes(service)) {
      return raw(403, 'Only the smart HTTP protocol is supported.\n', 'text/plain; charset=utf-8');
    }
    const svc = service as GitService;
    const { repository } = await open(ctx, depth, svc);
    const env = protocolEnv(ctx);
    const { stdout } = await gitService([svc.slice(4), '--stateless-rpc', '--advertise-refs', repository.gitDir], Buffer.alloc(0), env);
    // Protocol v2 answers with its capability list only; v0 starts with the service line.
    const v2 = svc === 'git-upload-pack' && /version=2/.test(env.GIT_PROTOCOL ?? '');
    const body = v2 ? stdout : Buffer.concat([Buffer.from(pktLine(`# service=${svc}\n`) + FLUSH), stdout]);
    return raw(200, body, `application/x-${svc}-advertisement`, NO_CACHE);
  }

  async function currentRefs(repository: RepositoryHandle): Promise<Map<string, string>> {
    const { stdout } = await git(repository.gitDir, ['for-each-ref', '--format=%(objectname) %(refname)']);
    const refs = new Map<string, string>();
    for (const line of stdout.toString('utf8').split('\n')) {
      const space = line.indexOf(' ');
      if (space > 0) refs.set(line.slice(space + 1), line.slice(0, space));
    }
    return refs;
  }

  async function receivePack(ctx: RequestContext, repository: RepositoryHandle, projectId: number, target: Target) {
    const body = requestBody(ctx);
    const request = readPushRequest(body);
    const { commands } = request;
    const defaultBranch = await repos.headBranch(repository);
    // As GitLab's pre-receive check does, the whole push is declined and git shows why.
    if (defaultBranch && commands.some((command) => command.ref === `refs/heads/${defaultBranch}` && command.after === ZERO_SHA)) {
      return declinedPush(request, 'The default branch of a project cannot be deleted.');
    }
    const pusher = await projectRepos.pusher(ctx.user!);
    return repos.writing(repository, async () => {
      await repos.assertWritable(repository).catch(() => {
        throw forbiddenText(READ_ONLY_MESSAGE);
      });
      const hadBranches = await repos.hasBranches(repository);
      const result = await gitService(['receive-pack', '--stateless-rpc', repository.gitDir], body);
      const refs = await currentRefs(repository);
      const applied = commands
        .filter((command) => (command.after === ZERO_SHA ? !refs.has(command.ref) : refs.get(command.ref) === command.after))
        .map((command) => ({
          ref: command.ref,
          before: command.before === ZERO_SHA ? null : command.before,
          after: command.after === ZERO_SHA ? null : command.after,
        }));
      if (!hadBranches && target.target === 'project') await adoptFirstBranch(repository, projectId, applied.map((update) => update.ref));
      if (applied.length > 0) await repos.notify(repository, applied, pusher);
      return result.stdout;
    });
  }

  /** The first push into an empty repository decides its default branch. */
  async function adoptFirstBranch(repository: RepositoryHandle, projectId: number, refs: string[]) {
    const branches = refs.filter((ref) => ref.startsWith('refs/heads/')).map((ref) => ref.slice('refs/heads/'.length));
    if (branches.length === 0) return;
    const head = await repos.headBranch(repository);
    const chosen = head && branches.includes(head) ? head : branches[0]!;
    if (chosen !== head) await repos.setHeadBranch(repository, chosen);
    const project = await projects.findById(projectId);
    if (project) await adoptDefaultBranch(projects, project, chosen);
  }

  async function serve(ctx: RequestContext, depth: number, service: GitService) {
    const { repository, target, projectId } = await open(ctx, depth, service);
    const output =
      service === 'git-receive-pack'
        ? await receivePack(ctx, repository, projectId, target)
        : (await gitService(['upload-pack', '--stateless-rpc', repository.gitDir], requestBody(ctx), protocolEnv(ctx))).stdout;
    return raw(200, output, `application/x-${service}-result`, NO_CACHE);
  }

  const routes: Route[] = [];
  for (let depth = 1; depth <= MAX_NAMESPACE_DEPTH; depth++) {
    // Params are named by position so every depth shares one param node per level.
    const prefix = Array.from({ length: depth + 1 }, (_, i) => `/:s${i}`).join('');
    // Scopes are checked in `open`, so that git shows a refused token the plain-text reason.
    const common = { raw: true, auth: 'optional', basicAuth: true, scopes: 'handler' } as const;
    routes.push(
      defineRoute({
        ...common,
        method: 'GET',
        path: `${prefix}/info/refs`,
        input: params({ service: f.optional(f.string()) }),
        handler: (ctx, input) => advertise(ctx, depth, input.service).catch(refusal),
      }),
      ...SERVICES.map((service) =>
        defineRoute({
          ...common,
          method: 'POST',
          path: `${prefix}/${service}`,
          streamBody: true,
          handler: (ctx) => serve(ctx, depth, service).catch(refusal),
        }),
      ),
    );
  }
  return routes;
}

/**
 * Clone and push over git's smart HTTP protocol at `/<namespace>/<project>.git`
 * (and `<project>.wiki.git`), served by git's own upload-pack and receive-pack in
 * stateless-RPC mode. Tokens come as HTTP Basic passwords.
 */
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { defineRoute, f, frameworkError, malformedRequest, params, raw, stream, type RequestContext, type Route } from '@forgekit/kernel';
import type { ProjectAccess, ProjectService } from '@forgekit/plugin-core/contracts';
import { git, runGitService, type ServiceProcess } from '../git/git-runner.js';
import { ZERO_SHA } from '../git/ref-names.js';
import { READ_ONLY_MESSAGE } from '../git/repository-error.js';
import type { ProjectRepositories } from '../shared/project-repository.js';
import { adoptDefaultBranch } from '../shared/route-deps.js';
import type { RepositoryHandle, RepositoryService } from '../storage/repository-service.js';
import { createGitAccess, forbiddenText, GitHttpRefusal, type RepositoryTarget } from './git-access.js';
import type { GitPaths } from './git-paths.js';
import type { BranchProtection } from '../protected-branches/branch-protection.js';
import { FLUSH, pktLine, type PushCommand } from './pkt-line.js';
import { preReceiveHook } from './pre-receive-hook.js';
import { pushRules } from './push-rules.js';
import { CorruptBody, drain, MAX_NEGOTIATION_BYTES, readPushCommands, requestInput } from './request-input.js';

/**
 * GitLab allows groups twenty levels deep. One route per depth (rather than a catch-all)
 * keeps `/api/v4` and the not-found answer untouched. Depth 0, `/<name>.git`, is no
 * project path: it reaches a project only through another name (an alias).
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

export function gitHttpRoutes(options: {
  access: Parameters<typeof createGitAccess>[0];
  projects: ProjectService;
  repos: RepositoryService;
  projectRepos: ProjectRepositories;
  protection: BranchProtection;
  gitPaths: GitPaths;
}): Route[] {
  const { projects, repos, projectRepos, protection, gitPaths } = options;
  const gitAccess = createGitAccess(options.access, projects);

  /** The repository a request addresses, after the access rules for `service`. */
  async function open(
    ctx: RequestContext,
    depth: number,
    service: GitService,
  ): Promise<{ repository: RepositoryHandle; target: Target; projectAccess: ProjectAccess | null }> {
    const target = targetOf(ctx, depth);
    if (!target) throw frameworkError(404, '404 Not Found');
    const push = service === 'git-receive-pack';
    gitAccess.checkScopes(ctx.credential, push ? 'push' : 'download');
    const container = target.target === 'project' && depth > 0 ? await gitPaths.container(target.fullPath, ctx.user) : null;
    if (container) {
      gitAccess.checkContainer(ctx.user, container, push, !!(await repos.find(container.key))?.readOnly);
      return { repository: await repos.ensure(container.key), target, projectAccess: null };
    }
    const projectRef = depth === 0 ? await gitPaths.resolve(target.fullPath) : target.fullPath;
    const projectAccess = await gitAccess.project(ctx.user, projectRef === null ? null : String(projectRef));
    const { project } = projectAccess;
    const key = { kind: target.target, containerId: project.id };
    if (push) {
      const readOnly = !!(await repos.find(key))?.readOnly;
      gitAccess.checkPush(ctx.user, projectAccess, target.target, readOnly);
    } else gitAccess.checkDownload(ctx.user, projectAccess, target.target);
    const repository = await repos.ensure(key, { storage: project.repositoryStorage, defaultBranch: project.defaultBranch ?? 'main' });
    return { repository, target, projectAccess };
  }

  const refusal = (error: unknown) => {
    if (error instanceof GitHttpRefusal) return error.reply;
    throw error;
  };

  const protocolEnv = (ctx: RequestContext): Record<string, string> => {
    const protocol = ctx.header('git-protocol');
    return protocol && /^[\w=:.-]+$/.test(protocol) ? { GIT_PROTOCOL: protocol } : {};
  };

  /** git's output, or 400 when the body did not inflate before git said anything. */
  async function outputOf(run: ServiceProcess): Promise<Readable> {
    try {
      return await run.output;
    } catch (error) {
      if (error instanceof CorruptBody) throw malformedRequest();
      throw error;
    }
  }

  /**
   * A fetch's negotiation, read whole (inflated, within its bound) before git starts: a body
   * past the bound costs the inflating of the bound and no git process at all.
   */
  async function negotiationOf(ctx: RequestContext): Promise<Readable> {
    try {
      return Readable.from([await buffer(requestInput(ctx, { maxBytes: MAX_NEGOTIATION_BYTES }))]);
    } catch (error) {
      if (error instanceof CorruptBody) throw malformedRequest();
      throw error;
    }
  }

  /** One stream of several parts, read in turn. */
  const concatenated = (...parts: (() => AsyncIterable<Buffer> | Promise<void>)[]) =>
    Readable.from(
      (async function* () {
        for (const part of parts) {
          const value = part();
          if (value instanceof Promise) await value;
          else yield* value;
        }
      })(),
      { objectMode: false },
    );

  async function advertise(ctx: RequestContext, depth: number, service: string | null | undefined) {
    if (!service || !(SERVICES as readonly string[]).includes(service)) {
      return raw(403, 'Only the smart HTTP protocol is supported.\n', 'text/plain; charset=utf-8');
    }
    const svc = service as GitService;
    const { repository } = await open(ctx, depth, svc);
    const env = protocolEnv(ctx);
    const run = runGitService([svc.slice(4), '--stateless-rpc', '--advertise-refs', repository.gitDir], Readable.from([]), { env });
    const output = await outputOf(run);
    // Protocol v2 answers with its capability list only; v0 starts with the service line.
    const v2 = svc === 'git-upload-pack' && /version=2/.test(env.GIT_PROTOCOL ?? '');
    const body = v2
      ? output
      : concatenated(
          () => Readable.from([Buffer.from(pktLine(`# service=${svc}\n`) + FLUSH)]),
          () => output,
        );
    return stream(200, body, `application/x-${svc}-advertisement`, NO_CACHE);
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

  /** The checks GitLab's pre-receive runs on a project push, as hook rules. */
  async function hookFor(ctx: RequestContext, repository: RepositoryHandle, projectAccess: ProjectAccess, commands: PushCommand[]) {
    const { project } = projectAccess;
    const policy = await protection.policyFor(ctx.user, project, { access: projectAccess, repository });
    const rules = await pushRules(commands, {
      policy,
      defaultBranch: await repos.headBranch(repository),
      empty: !(await repos.hasBranches(repository)),
      fullPath: `${project.namespace.fullPath}/${project.path}`,
      externalUrl: ctx.externalUrl,
      onProtectedBranch: async (sha) => {
        const { stdout } = await git(repository.gitDir, ['for-each-ref', `--contains=${sha}`, '--format=%(refname:lstrip=2)', 'refs/heads/'], {
          okCodes: [1, 128, 129],
        });
        return stdout
          .toString('utf8')
          .split('\n')
          .some((name) => name !== '' && policy.matching(name).length > 0);
      },
    });
    return preReceiveHook(rules);
  }

  async function receivePack(ctx: RequestContext, repository: RepositoryHandle, projectAccess: ProjectAccess | null, target: Target) {
    const projectId = projectAccess?.project.id ?? null;
    let pushed: Awaited<ReturnType<typeof readPushCommands>>;
    try {
      pushed = await readPushCommands(requestInput(ctx));
    } catch (error) {
      if (error instanceof CorruptBody) throw malformedRequest();
      throw error;
    }
    const { request, input } = pushed;
    const { commands } = request;
    // As GitLab's pre-receive checks do, a refused ref declines the whole push and git shows why.
    const hook = projectAccess && target.target === 'project' ? await hookFor(ctx, repository, projectAccess, commands) : { config: [], env: {} };
    const pusher = await projectRepos.pusher(ctx.user!);
    let gitStarted = false;
    let started!: (run: ServiceProcess) => void;
    let failed!: (error: unknown) => void;
    const running = new Promise<ServiceProcess>((resolve, reject) => {
      started = resolve;
      failed = reject;
    });
    // The write lasts as long as git runs, so a storage move waits for the whole push.
    const finished = repos.writing(repository, async () => {
      await repos.assertWritable(repository).catch(() => {
        throw forbiddenText(READ_ONLY_MESSAGE);
      });
      const hadBranches = await repos.hasBranches(repository);
      const run = runGitService(['receive-pack', '--stateless-rpc', repository.gitDir], input, hook);
      gitStarted = true;
      started(run);
      await run.exited;
      const refs = await currentRefs(repository);
      const applied = commands
        .filter((command) => (command.after === ZERO_SHA ? !refs.has(command.ref) : refs.get(command.ref) === command.after))
        .map((command) => ({
          ref: command.ref,
          before: command.before === ZERO_SHA ? null : command.before,
          after: command.after === ZERO_SHA ? null : command.after,
        }));
      if (!hadBranches && projectId !== null && target.target === 'project')
        await adoptFirstBranch(
          repository,
          projectId,
          applied.map((update) => update.ref),
        );
      if (applied.length > 0) await repos.notify(repository, applied, pusher);
    });
    finished.catch(async (error: unknown) => {
      // Refused before git ran: read the rest of the push so the client hears why.
      if (!gitStarted) await drain(input).catch(() => undefined);
      failed(error);
    });
    const output = await outputOf(await running);
    // The answer ends once the push's effects (default branch, events) are in place.
    const body = concatenated(
      () => output,
      () => finished.catch((error: unknown) => ctx.log.error({ err: error }, 'push could not be completed')),
    );
    return stream(200, body, 'application/x-git-receive-pack-result', NO_CACHE);
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
    const { repository, target, projectAccess } = await open(ctx, depth, service);
    if (service === 'git-receive-pack') return receivePack(ctx, repository, projectAccess, target);
    const run = runGitService(['upload-pack', '--stateless-rpc', repository.gitDir], await negotiationOf(ctx), { env: protocolEnv(ctx) });
    return stream(200, await outputOf(run), 'application/x-git-upload-pack-result', NO_CACHE);
  }

  const routes: Route[] = [];
  for (let depth = 0; depth <= MAX_NAMESPACE_DEPTH; depth++) {
    // Params are named by position so every depth shares one param node per level.
    const prefix = Array.from({ length: depth + 1 }, (_, i) => `/:s${i}`).join('');
    // Scopes are checked in `open`, so that git shows a refused token the plain-text reason.
    const common = { raw: true, auth: 'optional', basicAuth: true, scopes: 'handler' } as const;
    routes.push(
      defineRoute({
        ...common,
        method: 'GET',
        path: `${prefix}/info/refs`,
        // The refs advertised for a clone or fetch; a push's (`service=git-receive-pack`) comes as `application/x-git-receive-pack-advertisement`.
        response: { contentType: 'application/x-git-upload-pack-advertisement' },
        input: params({ service: f.optional(f.string()) }),
        handler: (ctx, input) => advertise(ctx, depth, input.service).catch(refusal),
      }),
      ...SERVICES.map((service) =>
        defineRoute({
          ...common,
          method: 'POST',
          path: `${prefix}/${service}`,
          // git's result, always 200 once git ran (a refused ref is reported inside it); a body that does not inflate is a 400.
          response: { status: 200, contentType: `application/x-${service}-result`, errors: [400] },
          streamBody: true,
          // A push's pack has no bound; a fetch's negotiation does, compressed or not.
          maxBodySize: service === 'git-upload-pack' ? MAX_NEGOTIATION_BYTES : 0,
          handler: (ctx) => serve(ctx, depth, service).catch(refusal),
        }),
      ),
    );
  }
  return routes;
}

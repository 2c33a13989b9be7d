/**
 * Project answers of lists from the kernel's presented cache: a project's JSON is kept by
 * the versions of every row it reads (the project, its namespace, a personal project's
 * owner) and the URL its links are built on. The caller's fields (`permissions`, an admin's
 * `repository_storage`) and the fields other plugins' extensions set (such as `empty_repo`,
 * read from disk) are live: filled on each request, in their places.
 */
import { JsonText, sourceKey, versionKey, type Fragment, type FragmentCache, type RenderedFragment } from '@forgekit/kernel';
import type { Project, ProjectFieldExtension } from '../contracts.js';
import type { UserBasicSource } from '../users/user-presenter.js';
import { type PresentOptions, presentPermissions, projectBasic, projectFull } from './project-presenter.js';

/** The fields of the full view that depend on the caller. */
const VIEWER_FIELDS = ['repository_storage', 'permissions'] as const;

type View = 'basic' | 'full';
type ProjectWithOwner = Project & { owner?: UserBasicSource | null };

/** What the extensions did on the miss: the fields they set (with the value each had before) and the values they read. */
interface Recorded {
  set: Record<string, unknown>;
  read: Record<string, unknown>;
}

/**
 * Runs the extensions on `body`, noting each field they set or delete and the value it had
 * before: those fields are live, since an extension may read what no key names (the disk).
 * The values they read of other fields are kept too, so that on a hit they decide from the
 * same body (an extension that fills `default_branch` only when it is empty must see it).
 */
function extendRecording(extensions: readonly ProjectFieldExtension[], project: Project, body: Record<string, unknown>, view: View): Recorded {
  const recorded: Recorded = { set: {}, read: {} };
  const note = (name: string | symbol) => {
    if (typeof name === 'string' && !Object.hasOwn(recorded.set, name)) recorded.set[name] = body[name];
  };
  const recorder = new Proxy(body, {
    get(target, name, receiver) {
      if (typeof name === 'string' && !Object.hasOwn(recorded.set, name) && !Object.hasOwn(recorded.read, name)) recorded.read[name] = target[name];
      return Reflect.get(target, name, receiver);
    },
    set(target, name, value) {
      note(name);
      return Reflect.set(target, name, value);
    },
    deleteProperty(target, name) {
      note(name);
      return Reflect.deleteProperty(target, name);
    },
    defineProperty(target, name, descriptor) {
      note(name);
      return Reflect.defineProperty(target, name, descriptor);
    },
  });
  for (const extend of extensions) extend(project, recorder, view);
  return recorded;
}

export interface ProjectFragments {
  /** `projectBasic`'s JSON. */
  basic(project: Project, externalUrl: string): JsonText;
  /** `projectFull`'s JSON; `options.owner` is the personal project's owner as read with it. */
  full(project: ProjectWithOwner, options: Omit<PresentOptions, 'extensions'>): JsonText;
  /** The same for the projects of one answer (a list's page): the caller's fields that repeat (`permissions`) are serialised once. */
  forPage(): Pick<ProjectFragments, 'basic' | 'full'>;
}

/** What the projects of one answer share: their live values' texts, and one `permissions` object per pair of levels. */
interface PageShared {
  serialised: Map<object, string>;
  permissions: Map<string, ReturnType<typeof presentPermissions>>;
}

function permissionsOf(permissions: PresentOptions['permissions'], shared: PageShared | undefined) {
  if (!shared || !permissions) return presentPermissions(permissions);
  const key = `${permissions.projectLevel}|${permissions.groupLevel}`;
  let presented = shared.permissions.get(key);
  if (!presented) shared.permissions.set(key, (presented = presentPermissions(permissions)));
  return presented;
}

export function createProjectFragments(cache: FragmentCache, extensions: readonly ProjectFieldExtension[]): ProjectFragments {
  function keyOf(view: View, project: ProjectWithOwner, externalUrl: string, owner: UserBasicSource | null | undefined) {
    const { namespace } = project;
    const ownerKey = view === 'full' && namespace.kind === 'user' && owner ? sourceKey('User', owner.id, owner.lockVersion) : '-';
    return versionKey(
      `project-${view}`,
      externalUrl,
      sourceKey('Project', project.id, project.lockVersion),
      sourceKey('Namespace', namespace.id, namespace.lockVersion),
      ownerKey,
    );
  }

  /** The live values: the viewer's fields, then the extensions run over what their fields held on the miss. */
  function liveOf(fragment: Fragment, project: Project, view: View, viewer: Record<string, unknown>): Record<string, unknown> | undefined {
    const { set, read } = fragment.initial as unknown as Recorded;
    // Own properties are the live fields; what the extensions read of the rest comes from the miss's body.
    const live: Record<string, unknown> = Object.assign(Object.create(read) as Record<string, unknown>, set, viewer);
    for (const extend of extensions) extend(project, live, view);
    // An extension that set a field it did not set on the miss has no place in the kept text.
    for (const name of Object.keys(live)) if (!fragment.live.has(name)) return undefined;
    return { ...live };
  }

  function render(view: View, build: () => Record<string, unknown>, project: Project, viewerFields: readonly string[]): RenderedFragment {
    const body = build();
    const recorded = extendRecording(extensions, project, body, view);
    return { body, live: [...viewerFields, ...Object.keys(recorded.set)], initial: recorded as unknown as Record<string, unknown> };
  }

  function basic(project: Project, externalUrl: string, shared?: PageShared): JsonText {
    if (!cache.enabled) return new JsonText(JSON.stringify(projectBasic(project, externalUrl, extensions)));
    const fragment = cache.fragment(keyOf('basic', project, externalUrl, null), () => render('basic', () => projectBasic(project, externalUrl), project, []));
    const live = liveOf(fragment, project, 'basic', {});
    return live ? fragment.json(live, shared?.serialised) : new JsonText(JSON.stringify(projectBasic(project, externalUrl, extensions)));
  }

  function full(project: ProjectWithOwner, options: Omit<PresentOptions, 'extensions'>, shared?: PageShared): JsonText {
    if (!cache.enabled) return new JsonText(JSON.stringify(projectFull(project, { ...options, extensions })));
    const fragment = cache.fragment(keyOf('full', project, options.externalUrl, options.owner), () =>
      render('full', () => projectFull(project, { ...options, isAdmin: false, permissions: undefined }), project, VIEWER_FIELDS),
    );
    const viewer = {
      repository_storage: options.isAdmin ? project.repositoryStorage : undefined,
      permissions: permissionsOf(options.permissions, shared),
    };
    const live = liveOf(fragment, project, 'full', viewer);
    return live ? fragment.json(live, shared?.serialised) : new JsonText(JSON.stringify(projectFull(project, { ...options, extensions })));
  }

  return {
    basic: (project, externalUrl) => basic(project, externalUrl),
    full: (project, options) => full(project, options),
    forPage() {
      const shared: PageShared = { serialised: new Map(), permissions: new Map() };
      return { basic: (project, externalUrl) => basic(project, externalUrl, shared), full: (project, options) => full(project, options, shared) };
    },
  };
}

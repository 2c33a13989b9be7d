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

/** What the extensions did on the miss: the fields they set (with the value each had before), the values they read of the body and of the project. */
interface Recorded {
  set: Record<string, unknown>;
  read: Record<string, unknown>;
  project: Record<string, unknown>;
}

/**
 * Runs the extensions on `body`, noting each field they set or delete and the value it had
 * before: those fields are live, since an extension may read what no key names (the disk).
 * The values they read of other fields are kept too, so that on a hit they decide from the
 * same body (an extension that fills `default_branch` only when it is empty must see it).
 */
function extendRecording(extensions: readonly ProjectFieldExtension[], project: Project, body: Record<string, unknown>, view: View): Recorded {
  const recorded: Recorded = { set: {}, read: {}, project: {} };
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
  // The project's fields they read: a page row read as its key (see `ProjectKey`) gives them back on a hit.
  const projectRecorder = new Proxy(project, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof name === 'string' && !Object.hasOwn(recorded.project, name)) recorded.project[name] = value;
      return value;
    },
  });
  for (const extend of extensions) extend(projectRecorder, recorder, view);
  return recorded;
}

/**
 * What a list reads of a page's project to find its kept fragment and fill the live fields:
 * the versions of every row the fragment reads, the caller's `permissions` sources and
 * `repository_storage`. Only the projects whose fragment is not kept are read whole.
 */
export interface ProjectKey {
  id: number;
  lockVersion?: number;
  repositoryStorage: string;
  namespace: Pick<Project['namespace'], 'id' | 'lockVersion' | 'kind' | 'traversalPath' | 'ownerId'>;
  owner: Pick<UserBasicSource, 'id' | 'lockVersion'> | null;
}

/** A page row's kept fragment, found by its key. */
export interface KeptProject {
  readonly key: ProjectKey;
  readonly fragment: Fragment;
}

export interface PageFragments extends Pick<ProjectFragments, 'basic' | 'full'> {
  /** The kept fragment of the row's view, if any; without one, the row is read whole and given to `basic` or `full`. */
  kept(view: View, key: ProjectKey, externalUrl: string): KeptProject | undefined;
  /** `basic` of a kept row, or undefined when the row must be read whole and given to `basic` (an extension set a new field). */
  keptBasic(kept: KeptProject): JsonText | undefined;
  /** `full` of a kept row, or undefined as for `keptBasic`; `permissions` are the caller's levels. */
  keptFull(kept: KeptProject, options: Pick<PresentOptions, 'isAdmin' | 'permissions'>): JsonText | undefined;
}

export interface ProjectFragments {
  /** Whether fragments are kept at all (else `kept` finds none). */
  readonly enabled: boolean;
  /** `projectBasic`'s JSON. */
  basic(project: Project, externalUrl: string): JsonText;
  /** `projectFull`'s JSON; `options.owner` is the personal project's owner as read with it. */
  full(project: ProjectWithOwner, options: Omit<PresentOptions, 'extensions'>): JsonText;
  /** The same for the projects of one answer (a list's page): the caller's fields that repeat (`permissions`) are serialised once. */
  forPage(): PageFragments;
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
  function keyOf(
    view: View,
    project: Pick<ProjectKey, 'id' | 'lockVersion' | 'namespace'>,
    externalUrl: string,
    owner: Pick<UserBasicSource, 'id' | 'lockVersion'> | null | undefined,
  ) {
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
  function liveOf(fragment: Fragment, project: Project | KeptProject, view: View, viewer: Record<string, unknown>): Record<string, unknown> | undefined {
    const { set, read } = fragment.initial as unknown as Recorded;
    // Own properties are the live fields; what the extensions read of the rest comes from the miss's body.
    const live: Record<string, unknown> = Object.assign(Object.create(read) as Record<string, unknown>, set, viewer);
    // A kept row gives the extensions the fields they read of the project on the miss: the key covers the rows they come from.
    const extended = 'fragment' in project ? ({ ...project.key, ...(fragment.initial as unknown as Recorded).project } as unknown as Project) : project;
    for (const extend of extensions) extend(extended, live, view);
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

  /** A kept row's JSON, or undefined when an extension set a field the kept text has no place for: the row is then read whole. */
  function liveJson(kept: KeptProject, view: View, viewer: Record<string, unknown>, shared: PageShared) {
    const live = liveOf(kept.fragment, kept, view, viewer);
    return live && kept.fragment.json(live, shared.serialised);
  }

  return {
    enabled: cache.enabled,
    basic: (project, externalUrl) => basic(project, externalUrl),
    full: (project, options) => full(project, options),
    forPage() {
      const shared: PageShared = { serialised: new Map(), permissions: new Map() };
      return {
        basic: (project, externalUrl) => basic(project, externalUrl, shared),
        full: (project, options) => full(project, options, shared),
        kept(view, key, externalUrl) {
          const fragment = cache.kept(keyOf(view, key, externalUrl, key.owner));
          return fragment && { key, fragment };
        },
        keptBasic: (kept) => liveJson(kept, 'basic', {}, shared),
        keptFull: (kept, options) =>
          liveJson(
            kept,
            'full',
            { repository_storage: options.isAdmin ? kept.key.repositoryStorage : undefined, permissions: permissionsOf(options.permissions, shared) },
            shared,
          ),
      };
    },
  };
}

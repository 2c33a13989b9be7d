/**
 * What a storage move needs from each kind of container: its repositories, its current
 * storage, how to find one for a request, how to record its new storage, and how to show it.
 */
import { notFound, type Principal } from '@forgekit/kernel';
import { projectIdentity } from '@forgekit/plugin-core/contracts';
import type { AccessService, GroupService, ProjectService } from '@forgekit/plugin-core/contracts';
import type { RepositoryKind, RepositoryPlacement } from '@forgekit/plugin-repositories/contracts';
import type { ContainerType } from './move-store.js';

export interface ContainerAdapter {
  type: ContainerType;
  /** The JSON key of the container in a move, and the error key of validation failures. */
  key: 'project' | 'snippet' | 'group';
  repositoryKinds: readonly RepositoryKind[];
  /** The container an admin named in a path, or GitLab's 404. */
  find(user: Principal | null, idOrPath: string): Promise<number>;
  currentStorage(id: number): Promise<string>;
  /** Containers on a storage (for bulk moves an administrator, `by`, asked for). */
  containersOn(storage: string, by: Principal): Promise<number[]>;
  /** Creates repositories a move must carry even if nothing was written yet. */
  prepare(id: number): Promise<void>;
  /** Records the container's new storage where the container keeps it. */
  recordStorage(id: number, storage: string): Promise<void>;
  present(ids: number[], externalUrl: string): Promise<Map<number, Record<string, unknown>>>;
}

export function containerAdapters(deps: { repos: RepositoryPlacement; projects: ProjectService; groups: GroupService; access: AccessService }) {
  const { repos, projects, groups, access } = deps;

  const storageOfRepository = async (kind: RepositoryKind, id: number) => (await repos.find({ kind, containerId: id }))?.storage ?? 'default';

  const project: ContainerAdapter = {
    type: 'project',
    key: 'project',
    repositoryKinds: ['project', 'wiki'],
    async find(user, idOrPath) {
      return (await access.requireProject(user, idOrPath)).project.id;
    },
    async currentStorage(id) {
      return (await projects.findById(id))?.repositoryStorage ?? 'default';
    },
    async containersOn(storage, by) {
      // The project's own storage is what `GET /projects?repository_storage=` reads; a project
      // whose repository was never written has no repository record to go by.
      const onStorage: number[] = [];
      for (const id of await access.visibleProjectIds(by)) {
        if ((await projects.findById(id))?.repositoryStorage === storage) onStorage.push(id);
      }
      return onStorage;
    },
    async prepare(id) {
      const row = await projects.findById(id);
      if (row) await repos.ensure({ kind: 'project', containerId: id }, { storage: row.repositoryStorage, defaultBranch: row.defaultBranch ?? 'main' });
    },
    async recordStorage(id, storage) {
      const row = await projects.findById(id);
      if (row && row.repositoryStorage !== storage) await projects.update(row, { repositoryStorage: storage });
    },
    async present(ids) {
      const shown = new Map<number, Record<string, unknown>>();
      for (const id of new Set(ids)) {
        const row = await projects.findById(id);
        if (row) shown.set(id, projectIdentity(row));
      }
      return shown;
    },
  };

  const snippet: ContainerAdapter = {
    type: 'snippet',
    key: 'snippet',
    repositoryKinds: ['snippet'],
    async find(_user, idOrPath) {
      const id = Number(idOrPath);
      const describer = repos.containerDescriber('snippet');
      const exists = Number.isSafeInteger(id) && (describer ? await describer.exists(id) : !!(await repos.find({ kind: 'snippet', containerId: id })));
      if (!exists) throw notFound('Snippet');
      return id;
    },
    currentStorage: (id) => storageOfRepository('snippet', id),
    containersOn: (storage) => repos.containersOnStorage('snippet', storage),
    async prepare() {},
    async recordStorage() {},
    async present(ids, externalUrl) {
      const describer = repos.containerDescriber('snippet');
      if (describer) return describer.present(ids, externalUrl);
      return new Map(ids.map((id) => [id, { id }]));
    },
  };

  const group: ContainerAdapter = {
    type: 'group',
    key: 'group',
    repositoryKinds: ['group_wiki'],
    async find(user, idOrPath) {
      return (await access.requireGroup(user, idOrPath)).group.id;
    },
    currentStorage: (id) => storageOfRepository('group_wiki', id),
    containersOn: (storage) => repos.containersOnStorage('group_wiki', storage),
    async prepare() {},
    async recordStorage() {},
    async present(ids, externalUrl) {
      const shown = new Map<number, Record<string, unknown>>();
      for (const id of new Set(ids)) {
        const row = await groups.findById(id);
        if (row) shown.set(id, { id: row.id, web_url: `${externalUrl}/groups/${row.fullPath}`, name: row.name });
      }
      return shown;
    },
  };

  return { project, snippet, group } as const;
}

export type ContainerAdapters = ReturnType<typeof containerAdapters>;

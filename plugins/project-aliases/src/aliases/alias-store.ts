/** Project aliases, by property. */
import type { Database } from '@forgekit/kernel';
import { unlessTaken } from '@forgekit/kernel/orm';
import { ProjectAliasEntity, type ProjectAliasRow } from '../entities/project-alias.js';

export type ProjectAlias = ProjectAliasRow;

export function createAliasStore(database: Database) {
  const page = database.prepareRows((p) => database.from(ProjectAliasEntity).orderBy('id').limit(p.limit).offset(p.offset));
  // Every git request through an alias reads it: compiled once.
  const byName = database.prepareRows((p) => database.from(ProjectAliasEntity).where('name', p.name));

  return {
    list: (limit: number, offset: number): Promise<ProjectAlias[]> => page.all({ limit, offset }),
    count: () => database.count(database.from(ProjectAliasEntity)),
    /** The alias with exactly this name. */
    findByName: (name: string): Promise<ProjectAlias | undefined> => byName.first({ name }),

    /** Stores an alias; null when the name is taken (the unique index decides). */
    async insert(projectId: number, name: string): Promise<ProjectAlias | null> {
      const now = new Date();
      const row = { projectId, name, createdAt: now, updatedAt: now };
      const id = await unlessTaken(database.insert(ProjectAliasEntity, row), () => null);
      return id === null ? null : { id, ...row };
    },

    remove: (id: number) => database.delete(ProjectAliasEntity, { id }),
    removeAllOf: (projectId: number) => database.delete(ProjectAliasEntity, { projectId }),
  };
}

export type AliasStore = ReturnType<typeof createAliasStore>;

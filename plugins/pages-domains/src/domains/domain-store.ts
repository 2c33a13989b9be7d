/** Pages domains, by property. */
import type { Database } from '@forgekit/kernel';
import { PagesDomainEntity, type PagesDomainRow } from '../entities/pages-domain.js';

export type NewPagesDomain = Omit<PagesDomainRow, 'id'>;
export type PagesDomainPatch = Partial<Omit<PagesDomainRow, 'id' | 'projectId' | 'domain' | 'createdAt'>>;

export function createDomainStore(database: Database) {
  const byName = database.prepareRows((p) => database.from(PagesDomainEntity).where('domain', p.domain).limit(1));

  return {
    findByName: async (domain: string): Promise<PagesDomainRow | undefined> => (await byName.all({ domain: domain.toLowerCase() }))[0],

    async findOfProject(projectId: number, domain: string): Promise<PagesDomainRow | undefined> {
      const row = (await byName.all({ domain: domain.toLowerCase() }))[0];
      return row?.projectId === projectId ? row : undefined;
    },

    listOfProject: (projectId: number, limit: number, offset: number): Promise<PagesDomainRow[]> =>
      database.rows(database.from(PagesDomainEntity).where('projectId', projectId).orderBy('domain').limit(limit).offset(offset)),
    countOfProject: (projectId: number) => database.count(database.from(PagesDomainEntity).where('projectId', projectId)),

    listAll: (limit: number, offset: number): Promise<PagesDomainRow[]> =>
      database.rows(database.from(PagesDomainEntity).orderBy('id').limit(limit).offset(offset)),
    countAll: () => database.count(database.from(PagesDomainEntity)),

    /** Domains whose verification is due: never verified, or enabled for less than `before`. */
    dueForVerification: (before: Date, limit: number): Promise<PagesDomainRow[]> =>
      database.rows(
        database
          .from(PagesDomainEntity)
          .where((w) => w.whereNull('verifiedAt').orWhereNull('enabledUntil').orWhere('enabledUntil', '<', before))
          .orderBy('id')
          .limit(limit),
      ),

    verifiedOf: (projectIds: readonly number[]): Promise<PagesDomainRow[]> =>
      database.rows(
        database
          .from(PagesDomainEntity)
          .whereIn('projectId', [...projectIds])
          .whereNotNull('verifiedAt')
          .orderBy('domain'),
      ),

    /** Inserts unless the project already has `limit` domains (0: no limit); null when held back. */
    insert: (row: NewPagesDomain, limit: number): Promise<number | null> =>
      limit > 0
        ? database.insertGuarded(PagesDomainEntity, row, {
            count: { of: database.from(PagesDomainEntity).where('projectId', row.projectId), below: limit },
            lockKey: `pages-domains:${row.projectId}`,
          })
        : database.insert(PagesDomainEntity, row),

    update: (id: number, patch: PagesDomainPatch) => database.update(PagesDomainEntity, { id }, patch),
    findById: (id: number): Promise<PagesDomainRow | undefined> => database.row(database.from(PagesDomainEntity).where('id', id)),
    remove: (id: number) => database.delete(PagesDomainEntity, { id }),
    removeAllOf: (projectId: number) => database.delete(PagesDomainEntity, { projectId }),
  };
}

export type DomainStore = ReturnType<typeof createDomainStore>;

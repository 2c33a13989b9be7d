/** Badges in the database, by property. */
import type { Database } from '@forgekit/kernel';
import { BadgeEntity, type BadgeKind, type BadgeRow } from '../entities/badge.js';

/** Whose badges a list shows: a project's own and its groups', or one group's. */
export type BadgeScope = { kind: 'project'; projectId: number; groupIds: readonly number[] } | { kind: 'group'; groupId: number };

export type NewBadge = Omit<BadgeRow, 'id'>;
export type BadgeChanges = Partial<Pick<BadgeRow, 'name' | 'linkUrl' | 'imageUrl' | 'updatedAt'>>;

export function createBadgeStore(database: Database) {
  const ofScope = (scope: BadgeScope) => {
    const query = database.from(BadgeEntity);
    if (scope.kind === 'group') return query.where({ kind: 'group', ownerId: scope.groupId });
    return query.where((w) =>
      w.where({ kind: 'project', ownerId: scope.projectId }).orWhere((groups) => groups.where('kind', 'group').whereIn('ownerId', scope.groupIds)),
    );
  };

  // The project list is the hot read (every project page shows its badges): compiled once per
  // number of groups above the project.
  const projectPage = database.prepareRows((p) =>
    database
      .from(BadgeEntity)
      .where((w) => w.where({ kind: 'project', ownerId: p.projectId }).orWhere((groups) => groups.where('kind', 'group').whereIn('ownerId', p.groupIds)))
      .orderBy('createdAt')
      .orderBy('id')
      .limit(p.limit)
      .offset(p.offset),
  );

  return {
    /** A page of the scope's badges, oldest first, with `name` exactly when given. */
    list(scope: BadgeScope, name: string | undefined, limit: number, offset: number): Promise<BadgeRow[]> {
      if (scope.kind === 'project' && name === undefined) {
        return projectPage.all({ projectId: scope.projectId, groupIds: [...scope.groupIds], limit, offset });
      }
      const query = ofScope(scope);
      if (name !== undefined) query.where('name', name);
      return database.rows(query.orderBy('createdAt').orderBy('id').limit(limit).offset(offset));
    },

    count(scope: BadgeScope, name: string | undefined): Promise<number> {
      const query = ofScope(scope);
      if (name !== undefined) query.where('name', name);
      return database.count(query);
    },

    /** One badge the scope shows (a project's own or one of its groups'), or undefined. */
    find: (scope: BadgeScope, id: number): Promise<BadgeRow | undefined> => database.row(ofScope(scope).where('id', id)),

    async insert(badge: NewBadge): Promise<BadgeRow> {
      return { id: await database.insert(BadgeEntity, badge), ...badge };
    },

    update: (id: number, changes: BadgeChanges) => database.update(BadgeEntity, { id }, changes),
    remove: (id: number) => database.delete(BadgeEntity, { id }),
    removeAllOf: (kind: BadgeKind, ownerId: number) => database.delete(BadgeEntity, { kind, ownerId }),
  };
}

export type BadgeStore = ReturnType<typeof createBadgeStore>;

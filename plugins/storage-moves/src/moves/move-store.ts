/** Storage move rows and their state transitions; each transition is a compare-and-swap on the state. */
import type { Database } from '@forgekit/kernel';
import { recordId } from '@forgekit/kernel/orm';
import { RepositoryStorageMove, type ContainerType, type MoveRow } from '../entities/repository-storage-move.js';
import { ACTIVE_STATES, MoveState, type MoveStateValue } from './move-states.js';

export type { ContainerType, MoveRow };

export function createMoveStore(database: Database) {
  const moves = () => database.legacy.from(RepositoryStorageMove);
  const ofType = (type: ContainerType, containerId: number | null) => {
    const query = moves().where('container_type', type);
    if (containerId !== null) query.where('container_id', containerId);
    return query;
  };
  const byId = database.legacy.prepareRows(RepositoryStorageMove, (p) => moves().where({ id: p.id }));

  return {
    async insert(move: { type: ContainerType; containerId: number; state: MoveStateValue; source: string; destination: string }): Promise<MoveRow> {
      const now = new Date();
      const row = {
        containerType: move.type,
        containerId: move.containerId,
        state: move.state as number,
        sourceStorageName: move.source,
        destinationStorageName: move.destination,
        errorMessage: null,
        createdAt: now,
        updatedAt: now,
      };
      const id = await database.legacy.em().insert<MoveRow>(RepositoryStorageMove, row);
      return { id, ...row };
    },
    find: async (id: number): Promise<MoveRow | undefined> => (recordId(id) === null ? undefined : byId.first({ id })),
    findFor: async (type: ContainerType, containerId: number, id: number): Promise<MoveRow | undefined> =>
      recordId(id) === null ? undefined : database.legacy.row(RepositoryStorageMove, moves().where({ id, container_type: type, container_id: containerId })),
    /** Newest first, as GitLab lists them. */
    list: (type: ContainerType, containerId: number | null, limit: number, offset: number): Promise<MoveRow[]> =>
      database.legacy.rows(RepositoryStorageMove, ofType(type, containerId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset)),
    count: (type: ContainerType, containerId: number | null): Promise<number> => database.legacy.count(ofType(type, containerId)),
    /** Whether a move of this container is still running. */
    async active(type: ContainerType, containerId: number): Promise<boolean> {
      return (await database.legacy.count(ofType(type, containerId).whereIn('state', ACTIVE_STATES))) > 0;
    },
    /** Moves `from` → `to` only if the move is still in `from`; returns whether it did. */
    async transition(id: number, from: number, to: MoveStateValue, errorMessage?: string | null): Promise<boolean> {
      const changes: Partial<MoveRow> = { state: to, updatedAt: new Date() };
      if (errorMessage !== undefined) changes.errorMessage = errorMessage;
      return (await database.legacy.em().nativeUpdate(RepositoryStorageMove, { id, state: from }, changes)) === 1;
    },
    /** Marks a started move as alive (so stale-move recovery leaves it alone); false once it is no longer started. */
    async stillStarted(id: number): Promise<boolean> {
      return (await database.legacy.em().nativeUpdate(RepositoryStorageMove, { id, state: MoveState.started }, { updatedAt: new Date() })) === 1;
    },
    /** Moves in a state not heard from since `before` (a started one whose process died). */
    idleSince: (state: number, before: Date): Promise<MoveRow[]> =>
      database.legacy.rows(RepositoryStorageMove, moves().where('state', state).where('updated_at', '<', before)),
    removeFor: (type: ContainerType, containerId: number) => database.legacy.em().nativeDelete(RepositoryStorageMove, { containerType: type, containerId }),
  };
}

export type MoveStore = ReturnType<typeof createMoveStore>;

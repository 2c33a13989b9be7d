/** Storage move rows and their state transitions; each transition is a compare-and-swap on the state. */
import type { Database } from '@forgekit/kernel';
import { recordId } from '@forgekit/kernel/orm';
import { RepositoryStorageMoveEntity, type ContainerType, type RepositoryStorageMoveRow } from '../entities/repository-storage-move.js';
import { ACTIVE_STATES, MoveState, type MoveStateValue } from './move-states.js';

export type { ContainerType, RepositoryStorageMoveRow };

export function createMoveStore(database: Database) {
  const moves = () => database.from(RepositoryStorageMoveEntity);
  const ofType = (type: ContainerType, containerId: number | null) => {
    const query = moves().where('containerType', type);
    if (containerId !== null) query.where('containerId', containerId);
    return query;
  };
  const byId = database.prepareRows((p) => moves().where('id', p.id));

  return {
    async insert(move: {
      type: ContainerType;
      containerId: number;
      state: MoveStateValue;
      source: string;
      destination: string;
    }): Promise<RepositoryStorageMoveRow> {
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
      const id = await database.insert(RepositoryStorageMoveEntity, row);
      return { id, ...row };
    },
    find: async (id: number): Promise<RepositoryStorageMoveRow | undefined> => (recordId(id) === null ? undefined : byId.first({ id })),
    findFor: async (type: ContainerType, containerId: number, id: number): Promise<RepositoryStorageMoveRow | undefined> =>
      recordId(id) === null ? undefined : database.row(moves().where({ id, containerType: type, containerId })),
    /** Newest first, as GitLab lists them. */
    list: (type: ContainerType, containerId: number | null, limit: number, offset: number): Promise<RepositoryStorageMoveRow[]> =>
      database.rows(ofType(type, containerId).orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(limit).offset(offset)),
    count: (type: ContainerType, containerId: number | null): Promise<number> => database.count(ofType(type, containerId)),
    /** Whether a move of this container is still running. */
    async active(type: ContainerType, containerId: number): Promise<boolean> {
      return (await database.count(ofType(type, containerId).whereIn('state', ACTIVE_STATES))) > 0;
    },
    /** Moves `from` → `to` only if the move is still in `from`; returns whether it did. */
    async transition(id: number, from: number, to: MoveStateValue, errorMessage?: string | null): Promise<boolean> {
      const changes: Partial<RepositoryStorageMoveRow> = { state: to, updatedAt: new Date() };
      if (errorMessage !== undefined) changes.errorMessage = errorMessage;
      return (await database.update(RepositoryStorageMoveEntity, { id, state: from }, changes)) === 1;
    },
    /** Marks a started move as alive (so stale-move recovery leaves it alone); false once it is no longer started. */
    async stillStarted(id: number): Promise<boolean> {
      return (await database.update(RepositoryStorageMoveEntity, { id, state: MoveState.started }, { updatedAt: new Date() })) === 1;
    },
    /** Moves in a state not heard from since `before` (a started one whose process died). */
    idleSince: (state: number, before: Date): Promise<RepositoryStorageMoveRow[]> =>
      database.rows(moves().where('state', state).where('updatedAt', '<', before)),
    removeFor: (type: ContainerType, containerId: number) => database.delete(RepositoryStorageMoveEntity, { containerType: type, containerId }),
  };
}

export type MoveStore = ReturnType<typeof createMoveStore>;

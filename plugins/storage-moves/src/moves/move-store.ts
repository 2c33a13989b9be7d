/** Storage move rows and their state transitions; each transition is a compare-and-swap on the state. */
import { recordId, type Knex } from '@forgekit/kernel/orm';
import { ACTIVE_STATES, MoveState, type MoveStateValue } from './move-states.js';

export type ContainerType = 'project' | 'snippet' | 'group';

export interface MoveRow {
  id: number;
  container_type: ContainerType;
  container_id: number;
  state: number;
  source_storage_name: string;
  destination_storage_name: string;
  error_message: string | null;
  created_at: unknown;
  updated_at: unknown;
}

export function createMoveStore(db: Knex) {
  const moves = () => db<MoveRow>('repository_storage_moves');
  return {
    async insert(move: { type: ContainerType; containerId: number; state: MoveStateValue; source: string; destination: string }): Promise<MoveRow> {
      const now = new Date();
      const [inserted] = await moves()
        .insert({
          container_type: move.type,
          container_id: move.containerId,
          state: move.state,
          source_storage_name: move.source,
          destination_storage_name: move.destination,
          created_at: now,
          updated_at: now,
        })
        .returning('id');
      const id = typeof inserted === 'object' ? (inserted as { id: number }).id : (inserted as number);
      return (await moves().where('id', id).first())!;
    },
    find: async (id: number) => (recordId(id) === null ? undefined : moves().where('id', id).first()),
    findFor: async (type: ContainerType, containerId: number, id: number) =>
      recordId(id) === null ? undefined : moves().where({ id, container_type: type, container_id: containerId }).first(),
    /** Newest first, as GitLab lists them. */
    list(type: ContainerType, containerId: number | null, limit: number, offset: number) {
      const query = moves().where('container_type', type);
      if (containerId !== null) query.where('container_id', containerId);
      return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset);
    },
    async count(type: ContainerType, containerId: number | null): Promise<number> {
      const query = moves().where('container_type', type);
      if (containerId !== null) query.where('container_id', containerId);
      const [row] = await query.count({ n: '*' });
      return Number(row!.n);
    },
    /** Whether a move of this container is still running. */
    async active(type: ContainerType, containerId: number): Promise<boolean> {
      return !!(await moves().where({ container_type: type, container_id: containerId }).whereIn('state', ACTIVE_STATES).first('id'));
    },
    /** Moves `from` → `to` only if the move is still in `from`; returns whether it did. */
    async transition(id: number, from: number, to: MoveStateValue, errorMessage?: string | null): Promise<boolean> {
      const changes: Record<string, unknown> = { state: to, updated_at: new Date() };
      if (errorMessage !== undefined) changes.error_message = errorMessage;
      return (await moves().where({ id, state: from }).update(changes)) === 1;
    },
    /** Marks a started move as alive (so stale-move recovery leaves it alone); false once it is no longer started. */
    async stillStarted(id: number): Promise<boolean> {
      return (await moves().where({ id, state: MoveState.started }).update({ updated_at: new Date() })) === 1;
    },
    /** Moves in a state not heard from since `before` (a started one whose process died). */
    idleSince: (state: number, before: Date) => moves().where('state', state).where('updated_at', '<', before),
    removeFor: (type: ContainerType, containerId: number) => moves().where({ container_type: type, container_id: containerId }).delete(),
  };
}

export type MoveStore = ReturnType<typeof createMoveStore>;

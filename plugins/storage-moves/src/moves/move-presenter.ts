/** GitLab's ProjectRepositoryStorageMove (and snippet, group) entities. */
import { toIso } from '@forgekit/kernel/orm';
import type { ContainerAdapter } from './containers.js';
import { stateName } from './move-states.js';
import type { MoveRow } from './move-store.js';

export async function presentMoves(adapter: ContainerAdapter, moves: MoveRow[], externalUrl: string) {
  const containers = await adapter.present(
    moves.map((move) => move.container_id),
    externalUrl,
  );
  return moves.map((move) => ({
    id: move.id,
    created_at: toIso(move.created_at),
    state: stateName(move.state),
    source_storage_name: move.source_storage_name,
    destination_storage_name: move.destination_storage_name,
    error_message: move.error_message ?? null,
    [adapter.key]: containers.get(move.container_id) ?? null,
  }));
}

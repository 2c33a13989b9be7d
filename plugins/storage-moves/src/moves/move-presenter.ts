/** GitLab's ProjectRepositoryStorageMove (and snippet, group) entities. */
import type { ContainerAdapter } from './containers.js';
import { stateName } from './move-states.js';
import type { RepositoryStorageMoveRow } from './move-store.js';

export async function presentMoves(adapter: ContainerAdapter, moves: RepositoryStorageMoveRow[], externalUrl: string) {
  const containers = await adapter.present(
    moves.map((move) => move.containerId),
    externalUrl,
  );
  return moves.map((move) => ({
    id: move.id,
    created_at: move.createdAt.toISOString(),
    state: stateName(move.state),
    source_storage_name: move.sourceStorageName,
    destination_storage_name: move.destinationStorageName,
    error_message: move.errorMessage ?? null,
    [adapter.key]: containers.get(move.containerId) ?? null,
  }));
}

/**
 * What other plugins and hosts may use of storage moves: the move as its hooks see it.
 * Moves are scheduled through the API and when a project's `repository_storage` changes; a
 * plugin that needs to schedule or watch one gets a service ref or an event here.
 */

/** What a move carries: a project with its wiki, a snippet, or a group's wiki. */
export type StorageMoveContainerType = 'project' | 'snippet' | 'group';

/** A running move of one container's repositories to another storage. */
export interface StorageMove {
  id: number;
  containerType: StorageMoveContainerType;
  containerId: number;
  sourceStorageName: string;
  destinationStorageName: string;
}

/** Points where tests (or operators' tooling) can act in the middle of a move. */
export interface MoveHooks {
  /** After every repository was copied and verified, before the records switch. */
  afterCopy?: (move: StorageMove) => void | Promise<void>;
  /** After the records switched to the destination, before the move is `replicated` and the repositories writable. */
  afterSwitch?: (move: StorageMove) => void | Promise<void>;
}

import { storageMovesPlugin } from './plugin.js';

export {
  storageMovesPlugin,
  createStorageMovesPlugin,
  StorageMovesConfigSchema,
  RECOVER_JOB,
  type StorageMovesConfig,
  type StorageMovesOptions,
} from './plugin.js';
export type { MoveHooks, StorageMove, StorageMoveContainerType } from './contracts.js';
export { MOVE_JOB, BULK_JOB } from './moves/move-scheduler.js';
export default storageMovesPlugin;

/** Services the runners plugin provides to other plugins (a job queue, for one). */
import { createServiceRef } from '@forgekit/kernel';
import type { RunnerRow } from './runners/runner-row.js';
import type { ManagerDetails } from './runners/runner-store.js';

export interface RunnersService {
  findById(id: number): Promise<RunnerRow | undefined>;
  /** The runner an authentication token belongs to. */
  findByToken(token: string): Promise<RunnerRow | undefined>;
  /** Marks the runner as contacted now (it asked for a job, for example). */
  heartbeat(runnerId: number, manager: ManagerDetails): Promise<void>;
}

export const runnersServiceRef = createServiceRef<RunnersService>('runners.runners');

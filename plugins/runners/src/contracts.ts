/** What other plugins may use of runners (a job queue, for one): the runner service and the runner as it sees it. */
import { createServiceRef } from '@forgekit/kernel';

export const RUNNER_TYPES = ['instance_type', 'group_type', 'project_type'] as const;
export type RunnerType = (typeof RUNNER_TYPES)[number];
/** `registration_token` (legacy registration) or `authenticated_user` (created through the API). */
export type RegistrationType = 'registration_token' | 'authenticated_user';

/** A CI runner. */
export interface Runner {
  id: number;
  runnerType: RunnerType;
  registrationType: RegistrationType;
  tokenExpiresAt?: Date | null;
  name?: string | null;
  description?: string | null;
  /** False while the runner is paused. */
  active: boolean;
  runUntagged: boolean;
  locked: boolean;
  /** `not_protected` or `ref_protected`. */
  accessLevel: string;
  maximumTimeout?: number | null;
  maintenanceNote?: string | null;
  contactedAt?: Date | null;
  creatorId?: number | null;
  /** The owning group of a group runner. */
  groupId?: number | null;
  /** The owning project of a project runner (the first it was assigned to). */
  ownerProjectId?: number | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What a runner reports about the machine it runs on. */
export interface ManagerDetails {
  systemXid: string;
  version?: string | null;
  revision?: string | null;
  platform?: string | null;
  architecture?: string | null;
  ipAddress?: string | null;
}

export interface RunnersService {
  findById(id: number): Promise<Runner | undefined>;
  /** The runner an authentication token belongs to. */
  findByToken(token: string): Promise<Runner | undefined>;
  /** Marks the runner as contacted now (it asked for a job, for example). */
  heartbeat(runnerId: number, manager: ManagerDetails): Promise<void>;
}

export const runnersServiceRef = createServiceRef<RunnersService>('runners.runners');

/** The plan-limits service other plugins use to enforce instance limits. */
import { createServiceRef } from '@forgekit/kernel';

export interface PlanLimitsService {
  /** A limit's value for a plan (default: `default`, the plan of a self-managed instance). */
  get(name: string, plan?: string): Promise<number>;
  /**
   * Whether adding one more would break the limit, given how many exist now.
   * A limit of 0 means "no limit", as in GitLab.
   */
  exceeded(name: string, currentCount: number, plan?: string): Promise<boolean>;
  /**
   * GitLab's validation text (on `base`) when adding one more would break the limit,
   * e.g. `Maximum number of project feature flags (200) exceeded`; null while within it.
   */
  exceededMessage(name: string, currentCount: number, plan?: string): Promise<string | null>;
}

export const planLimitsServiceRef = createServiceRef<PlanLimitsService>('plan-limits.limits');

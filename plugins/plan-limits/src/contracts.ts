/** What other plugins may use of plan limits: the service they enforce limits with, and GitLab's texts. */
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
  /** Sets one limit of a plan, including limits the API does not expose (for hosts and tests). */
  set(name: string, value: number, plan?: string): Promise<void>;
}

export const planLimitsServiceRef = createServiceRef<PlanLimitsService>('plan-limits.limits');

export { PLAN_NAMES, DEFAULT_PLAN, limitExceededMessage, PUBLIC_LIMITS, INTERNAL_LIMITS, type PlanName, type PublicLimit } from './limits/limit-catalogue.js';

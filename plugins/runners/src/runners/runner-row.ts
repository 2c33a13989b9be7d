/** The fixed vocabularies of the runner API. */
import type { RunnerType } from '../contracts.js';

export { RUNNER_TYPES, type RegistrationType, type RunnerType } from '../contracts.js';
export type { RunnerRow } from '../entities/runner.js';

export const ACCESS_LEVELS = ['not_protected', 'ref_protected'] as const;

/** The digit GitLab puts in a runner token (`t1_`, `t2_`, `t3_`). */
export const TYPE_DIGIT: Record<RunnerType, number> = { instance_type: 1, group_type: 2, project_type: 3 };

/** Creating a runner, for registration and for `POST /user/runners`: limits, validation, insert. */
import type { RunnerLimits } from '../limits/runner-limits.js';
import { runnerErrors, type ModelErrors } from './runner-attributes.js';
import type { RunnerRow } from './runner-row.js';
import type { NewRunner, RunnerStore } from './runner-store.js';

export type CreationResult = { row: RunnerRow; secret: string; errors?: undefined } | { errors: ModelErrors };

export function createRunnerCreation(store: RunnerStore, limits: RunnerLimits) {
  return async function createRunner(input: NewRunner): Promise<CreationResult> {
    const errors: ModelErrors = {};
    if (input.runnerType === 'project_type' && input.projectId) {
      const exceeded = await limits.check('project', input.projectId);
      if (exceeded) errors[exceeded.key] = [exceeded.message];
    }
    if (input.runnerType === 'group_type' && input.groupId) {
      const exceeded = await limits.check('group', input.groupId);
      if (exceeded) errors[exceeded.key] = [exceeded.message];
    }
    runnerErrors(null, input, errors);
    if (Object.keys(errors).length > 0) return { errors };
    return store.create(input);
  };
}

export type CreateRunner = ReturnType<typeof createRunnerCreation>;

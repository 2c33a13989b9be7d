/** Creating a runner, for registration and for `POST /user/runners`: limits, validation, insert. */
import type { LimitScope, RunnerLimits } from '../limits/runner-limits.js';
import { runnerErrors, type ModelErrors } from './runner-attributes.js';
import type { RunnerRow } from './runner-row.js';
import type { NewRunner, RunnerStore } from './runner-store.js';

export type CreationResult = { row: RunnerRow; secret: string; errors?: undefined } | { errors: ModelErrors };

/** The project or group whose plan limit a new runner counts against, if any. */
function limitedBy(input: NewRunner): [LimitScope, number] | null {
  if (input.runnerType === 'project_type' && input.projectId) return ['project', input.projectId];
  if (input.runnerType === 'group_type' && input.groupId) return ['group', input.groupId];
  return null;
}

export function createRunnerCreation(store: RunnerStore, limits: RunnerLimits) {
  return async function createRunner(input: NewRunner): Promise<CreationResult> {
    const errors: ModelErrors = {};
    const scope = limitedBy(input);
    const exceeded = scope && (await limits.check(...scope));
    if (exceeded) errors[exceeded.key] = [exceeded.message];
    runnerErrors(null, input, errors);
    if (Object.keys(errors).length > 0) return { errors };
    // The limit again, under its lock: concurrent registrations cannot pass it together.
    let late: ModelErrors = {};
    const created = await store.create(input, async (tx) => {
      const again = scope && (await limits.check(...scope, tx));
      if (again) late = { [again.key]: [again.message] };
      return !again;
    });
    return created ?? { errors: late };
  };
}

export type CreateRunner = ReturnType<typeof createRunnerCreation>;

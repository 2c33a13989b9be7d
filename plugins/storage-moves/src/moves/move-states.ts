/** GitLab's storage move states: stored as its numbers, shown by their human names. */
export const MoveState = {
  initial: 1,
  scheduled: 2,
  started: 3,
  finished: 4,
  failed: 5,
  replicated: 6,
  cleanupFailed: 7,
} as const;

export type MoveStateValue = (typeof MoveState)[keyof typeof MoveState];

const NAMES: Record<number, string> = {
  1: 'initial',
  2: 'scheduled',
  3: 'started',
  4: 'finished',
  5: 'failed',
  6: 'replicated',
  7: 'cleanup failed',
};

export const stateName = (state: number) => NAMES[state] ?? 'initial';

/** States in which the move still owns the repositories (they stay read-only). */
export const ACTIVE_STATES: readonly number[] = [MoveState.initial, MoveState.scheduled, MoveState.started];

/**
 * Iteration cadences: GitLab's validations, and the scheduling of an automatic cadence's
 * iterations (run by the `iterations:schedule` job, idempotent).
 */
import { type EventBus, longerThan, notFound, patchFrom, tooLongMessage, validationFailed } from '@forgekit/kernel';
import { type CadenceInput, type IterationCadence, type IterationCadencesService, iterationEvents } from '../contracts.js';
import { addDays, todayDate } from '../iterations/iteration-dates.js';
import type { IterationStore, StoredIteration } from '../iterations/iteration-store.js';
import { presentCadence } from './cadence-presenter.js';
import { missingIterations, periodOf, realigned } from './cadence-schedule.js';
import type { CadenceFields, CadenceStore } from './cadence-store.js';

export const CADENCE_TITLE_LIMIT = 255;
export const CADENCE_DESCRIPTION_LIMIT = 5000;
export const DURATION_WEEKS = { min: 0, max: 4 };
export const ITERATIONS_IN_ADVANCE = { min: 0, max: 10 };

const DEFAULTS: CadenceFields = {
  title: '',
  description: null,
  automatic: true,
  active: true,
  rollOver: false,
  startDate: null,
  durationInWeeks: null,
  iterationsInAdvance: null,
};

const INPUT_FIELDS = {
  title: 'title',
  description: 'description',
  automatic: 'automatic',
  active: 'active',
  roll_over: 'rollOver',
  start_date: 'startDate',
  duration_in_weeks: 'durationInWeeks',
  iterations_in_advance: 'iterationsInAdvance',
} as const;

function applyInput(base: CadenceFields, input: CadenceInput): CadenceFields {
  const next: CadenceFields = { ...base, ...patchFrom<CadenceFields, CadenceInput>(input, INPUT_FIELDS) };
  // A cadence turned manual forgets its automation, as GitLab's does.
  if (base.automatic && !next.automatic) Object.assign(next, { rollOver: false, durationInWeeks: null, iterationsInAdvance: null });
  return next;
}

type Errors = Record<string, string[]>;
const add = (errors: Errors, field: string, message: string) => {
  errors[field] = [...(errors[field] ?? []), message];
};

/** GitLab's inclusion check (nil allowed), then its presence check for automatic cadences. */
function checkRange(errors: Errors, field: string, value: number | null, range: { min: number; max: number }, automatic: boolean) {
  if (value !== null && (value < range.min || value > range.max)) add(errors, field, 'is not included in the list');
  else if (value === null && automatic) add(errors, field, "can't be blank");
}

function fieldErrors(fields: CadenceFields): Errors {
  const errors: Errors = {};
  if (fields.title.trim() === '') add(errors, 'title', "can't be blank");
  else if (longerThan(fields.title, CADENCE_TITLE_LIMIT)) add(errors, 'title', tooLongMessage(CADENCE_TITLE_LIMIT));
  if (fields.automatic && fields.startDate === null) add(errors, 'start_date', "can't be blank");
  checkRange(errors, 'duration_in_weeks', fields.durationInWeeks, DURATION_WEEKS, fields.automatic);
  checkRange(errors, 'iterations_in_advance', fields.iterationsInAdvance, ITERATIONS_IN_ADVANCE, fields.automatic);
  if (fields.description !== null && longerThan(fields.description, CADENCE_DESCRIPTION_LIMIT))
    add(errors, 'description', tooLongMessage(CADENCE_DESCRIPTION_LIMIT));
  return errors;
}

/** Whether a change gives the automation a new start (GitLab's `requires_new_automation_start_date?`). */
const needsNewStart = (previous: CadenceFields | null, next: CadenceFields) =>
  next.automatic &&
  next.startDate !== null &&
  (previous === null || !previous.automatic || previous.startDate !== next.startDate || previous.durationInWeeks !== next.durationInWeeks);

/** GitLab's rules for a new automation start date, against the cadence's iterations. */
function startDateErrors(errors: Errors, fields: CadenceFields, iterations: readonly StoredIteration[], today: string) {
  const start = fields.startDate!;
  const current = iterations.find((iteration) => iteration.startDate <= today && iteration.dueDate >= today);
  const past = iterations.filter((iteration) => iteration.dueDate < today).at(-1);
  if (current && start <= current.dueDate) {
    add(errors, 'base', `The automation start date must come after the active iteration ${periodOf(current)}.`);
  }
  if (!current && past && start <= past.dueDate) {
    add(errors, 'base', `The automation start date must come after the past iteration ${periodOf(past)}.`);
  }
  const earliest = addDays(today, 1 - (fields.durationInWeeks ?? 0) * 7);
  if (!current && start < earliest) {
    add(errors, 'base', `The automation start date would retroactively create a past iteration. ${earliest} is the earliest possible start date.`);
  }
}

function validate(previous: CadenceFields | null, fields: CadenceFields, iterations: readonly StoredIteration[]) {
  const errors = fieldErrors(fields);
  if (Object.keys(errors).length === 0 && needsNewStart(previous, fields)) startDateErrors(errors, fields, iterations, todayDate());
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
}

export interface CadenceServiceOptions {
  /** Asks for the cadence's iterations to be scheduled in the background. */
  requestSchedule(cadenceId: number): Promise<void>;
}

export function createCadenceService(store: CadenceStore, iterations: IterationStore, events: EventBus, options: CadenceServiceOptions) {
  async function emitDeleted(groupId: number, ids: readonly number[]) {
    for (const iterationId of ids) await events.emit(iterationEvents.deleted, { iterationId, groupId });
  }

  const service: IterationCadencesService & {
    page(groupId: number, limit: number, offset: number): Promise<IterationCadence[]>;
    count(groupId: number): Promise<number>;
    removeAllOfGroup(groupId: number): Promise<void>;
    scheduleAll(): Promise<number>;
    closeDue(): Promise<number>;
  } = {
    list: (groupId) => store.ofGroup(groupId),
    page: (groupId, limit, offset) => store.pageOfGroup(groupId, limit, offset),
    count: (groupId) => store.countOfGroup(groupId),

    async find(groupId, cadenceId) {
      const cadence = await store.byId(cadenceId);
      if (!cadence || cadence.groupId !== groupId) throw notFound('Iteration Cadence');
      return cadence;
    },

    async create(groupId, input) {
      const fields = applyInput(DEFAULTS, input);
      validate(null, fields, []);
      const cadence = await store.insert(groupId, fields);
      if (cadence.automatic && cadence.active) await options.requestSchedule(cadence.id);
      return cadence;
    },

    async update(previous, input) {
      const next = applyInput(previous, input);
      const today = todayDate();
      const { cadence, moved } = await store.transaction(async (tx) => {
        await iterations.lockGroup(tx, previous.groupId);
        const existing = await iterations.ofCadence(previous.id, tx);
        validate(previous, next, existing);
        // A new start or duration moves the upcoming iterations, back to back from the new start.
        const moves =
          needsNewStart(previous, next) && next.durationInWeeks
            ? realigned({ startDate: next.startDate!, durationInWeeks: next.durationInWeeks }, existing, today)
            : [];
        if (moves.length > 0) await iterations.redate(previous.id, moves, tx);
        const moved = moves.map((move) => ({ move, before: existing.find((iteration) => iteration.id === move.id)! }));
        return { cadence: await store.update(previous, next, tx), moved };
      });
      for (const { move, before } of moved) {
        const changes = {
          start_date: { previous: before.startDate, current: move.startDate },
          due_date: { previous: before.dueDate, current: move.dueDate },
        };
        await events.emit(iterationEvents.updated, { iterationId: move.id, groupId: cadence.groupId, changes });
      }
      if (cadence.automatic && cadence.active) await options.requestSchedule(cadence.id);
      return cadence;
    },

    async remove(cadence) {
      const ids = (await iterations.ofCadence(cadence.id)).map((iteration) => iteration.id);
      await store.transaction(async (tx) => {
        await iterations.lockGroup(tx, cadence.groupId);
        await iterations.removeOfCadence(cadence.id, tx);
        await store.remove(cadence.id, tx);
      });
      await emitDeleted(cadence.groupId, ids);
    },

    async schedule(cadenceId) {
      const cadence = await store.byId(cadenceId);
      if (!cadence?.automatic || !cadence.active || !cadence.startDate || !cadence.durationInWeeks || !cadence.iterationsInAdvance) return 0;
      const spec = { startDate: cadence.startDate, durationInWeeks: cadence.durationInWeeks, iterationsInAdvance: cadence.iterationsInAdvance };
      const created = await iterations.insert(cadence.groupId, cadence.id, async (tx) =>
        missingIterations(spec, await iterations.ofCadence(cadence.id, tx), todayDate()),
      );
      for (const iteration of created) await events.emit(iterationEvents.created, { iterationId: iteration.id, groupId: cadence.groupId });
      return created.length;
    },

    async scheduleAll() {
      let created = 0;
      for (const cadence of await store.scheduled()) created += await service.schedule(cadence.id);
      return created;
    },

    async closeDue() {
      const today = todayDate();
      const cadences = new Map<number, IterationCadence | undefined>();
      let closed = 0;
      for (const iteration of await iterations.dueToClose(today)) {
        if (!(await iterations.markClosed(iteration.id))) continue;
        closed += 1;
        if (!cadences.has(iteration.cadenceId)) cadences.set(iteration.cadenceId, await store.byId(iteration.cadenceId));
        const cadence = cadences.get(iteration.cadenceId);
        const next = await iterations.nextOpen(iteration.cadenceId, iteration.dueDate, today);
        await events.emit(iterationEvents.closed, {
          iterationId: iteration.id,
          groupId: iteration.groupId,
          cadenceId: iteration.cadenceId,
          rollOver: Boolean(cadence?.automatic && cadence.rollOver),
          nextIterationId: next?.id ?? null,
        });
      }
      return closed;
    },

    async removeAllOfGroup(groupId) {
      await store.removeOfGroup(groupId);
    },

    entity: (cadence: IterationCadence) => presentCadence(cadence),
  };
  return service;
}

export type CadenceService = ReturnType<typeof createCadenceService>;

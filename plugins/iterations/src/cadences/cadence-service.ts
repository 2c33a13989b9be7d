/**
 * Iteration cadences: GitLab's validations, and the scheduling of an automatic cadence's
 * iterations (run by the `iterations:schedule` job, idempotent).
 */
import { type EventBus, longerThan, notFound, tooLongMessage, validationFailed } from '@forgekit/kernel';
import { type CadenceInput, type IterationCadence, type IterationCadencesService, iterationEvents } from '../contracts.js';
import { todayDate } from '../iterations/iteration-dates.js';
import type { IterationStore } from '../iterations/iteration-store.js';
import { presentCadence } from './cadence-presenter.js';
import { missingIterations } from './cadence-schedule.js';
import type { CadenceFields, CadenceStore, StoredCadence } from './cadence-store.js';

export const CADENCE_TITLE_LIMIT = 255;
export const CADENCE_DESCRIPTION_LIMIT = 5000;
export const DURATION_WEEKS = { min: 1, max: 4 };
export const ITERATIONS_IN_ADVANCE = { min: 1, max: 10 };

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

function applyInput(base: CadenceFields, input: CadenceInput): CadenceFields {
  const next = { ...base };
  if (input.title !== undefined) next.title = input.title;
  if (input.description !== undefined) next.description = input.description;
  if (input.automatic !== undefined) next.automatic = input.automatic;
  if (input.active !== undefined) next.active = input.active;
  if (input.roll_over !== undefined) next.rollOver = input.roll_over;
  if (input.start_date !== undefined) next.startDate = input.start_date;
  if (input.duration_in_weeks !== undefined) next.durationInWeeks = input.duration_in_weeks;
  if (input.iterations_in_advance !== undefined) next.iterationsInAdvance = input.iterations_in_advance;
  return next;
}

const within = (value: number | null, range: { min: number; max: number }) => value !== null && value >= range.min && value <= range.max;

function validate(fields: CadenceFields) {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] = [...(errors[field] ?? []), message]);
  if (fields.title.trim() === '') add('title', "can't be blank");
  else if (longerThan(fields.title, CADENCE_TITLE_LIMIT)) add('title', tooLongMessage(CADENCE_TITLE_LIMIT));
  if (fields.description !== null && longerThan(fields.description, CADENCE_DESCRIPTION_LIMIT)) add('description', tooLongMessage(CADENCE_DESCRIPTION_LIMIT));
  if (fields.automatic) {
    if (fields.startDate === null) add('start_date', "can't be blank");
    if (!within(fields.durationInWeeks, DURATION_WEEKS)) add('duration_in_weeks', 'is not included in the list');
    if (!within(fields.iterationsInAdvance, ITERATIONS_IN_ADVANCE)) add('iterations_in_advance', 'is not included in the list');
  }
  if (fields.rollOver && !fields.automatic) add('roll_over', 'can only be enabled for cadences that use automatic scheduling');
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
}

/** Whether a change moves the dates an automatic cadence's upcoming iterations were scheduled on. */
const reschedules = (previous: CadenceFields, next: CadenceFields) =>
  next.automatic && (!previous.automatic || previous.startDate !== next.startDate || previous.durationInWeeks !== next.durationInWeeks);

export interface CadenceServiceOptions {
  /** Asks for the cadence's iterations to be scheduled in the background. */
  requestSchedule(cadenceId: number): Promise<void>;
}

export function createCadenceService(store: CadenceStore, iterations: IterationStore, events: EventBus, options: CadenceServiceOptions) {
  async function emitDeleted(groupId: number, ids: readonly number[]) {
    for (const iterationId of ids) await events.emit(iterationEvents.deleted, { iterationId, groupId });
  }

  const service: IterationCadencesService & { removeAllOfGroup(groupId: number): Promise<void>; scheduleAll(): Promise<number> } = {
    list: (groupId) => store.ofGroup(groupId),

    async find(groupId, cadenceId) {
      const cadence = await store.byId(cadenceId);
      if (!cadence || cadence.groupId !== groupId) throw notFound('Iteration Cadence');
      return cadence;
    },

    async create(groupId, input) {
      const fields = applyInput(DEFAULTS, input);
      validate(fields);
      const cadence = await store.insert(groupId, fields);
      if (cadence.automatic && cadence.active) await options.requestSchedule(cadence.id);
      return cadence;
    },

    async update(previous, input) {
      const next = applyInput(previous, input);
      validate(next);
      const today = todayDate();
      const { cadence, removed } = await store.transaction(async (em) => {
        await iterations.lockGroup(em, previous.groupId);
        const removed = reschedules(previous, next) ? await iterations.removeStartingAfter(previous.id, today, em) : [];
        return { cadence: await store.update(previous as StoredCadence, next, em), removed };
      });
      await emitDeleted(cadence.groupId, removed);
      if (cadence.automatic && cadence.active) await options.requestSchedule(cadence.id);
      return cadence;
    },

    async remove(cadence) {
      const ids = (await iterations.ofCadence(cadence.id)).map((iteration) => iteration.id);
      await store.transaction(async (em) => {
        await iterations.lockGroup(em, cadence.groupId);
        await iterations.removeOfCadence(cadence.id, em);
        await store.remove(cadence.id, em);
      });
      await emitDeleted(cadence.groupId, ids);
    },

    async schedule(cadenceId) {
      const cadence = await store.byId(cadenceId);
      if (!cadence?.automatic || !cadence.active || !cadence.startDate || !cadence.durationInWeeks || !cadence.iterationsInAdvance) return 0;
      const spec = { startDate: cadence.startDate, durationInWeeks: cadence.durationInWeeks, iterationsInAdvance: cadence.iterationsInAdvance };
      const created = await iterations.insert(cadence.groupId, cadence.id, async (em) =>
        missingIterations(spec, await iterations.ofCadence(cadence.id, em), todayDate()),
      );
      for (const iteration of created) await events.emit(iterationEvents.created, { iterationId: iteration.id, groupId: cadence.groupId });
      return created.length;
    },

    async scheduleAll() {
      let created = 0;
      for (const cadence of await store.scheduled()) created += await service.schedule(cadence.id);
      return created;
    },

    async removeAllOfGroup(groupId) {
      await store.removeOfGroup(groupId);
    },

    entity: (cadence: IterationCadence) => presentCadence(cadence),
  };
  return service;
}

export type CadenceService = ReturnType<typeof createCadenceService>;

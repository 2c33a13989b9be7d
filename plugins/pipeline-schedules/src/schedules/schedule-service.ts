/**
 * Creating and changing schedules with GitLab's rules: the ref is expanded to a
 * full ref first (and refused as ambiguous when it cannot be), then the model rules
 * run, and every save recomputes `next_run_at`.
 */
import { longerThan, TEXT_LIMIT, tooLongMessage, validationFailed } from '@forgekit/kernel';
import type { Project } from '@forgekit/plugin-core/contracts';
import type { PlanLimitsService } from '@forgekit/plugin-plan-limits/contracts';
import { isValidCron } from '../cron/cron-expression.js';
import { nextRunAt } from '../cron/next-run.js';
import { ianaZoneFor } from '../cron/time-zone.js';
import { FULL_REF, type RefProject, type RefResolver } from '../git-refs/ref-resolver.js';
import type { PipelineScheduleRow } from '../entities/pipeline-schedule.js';
import { INPUTS_LIMIT, INPUT_NAME_LIMIT, inputValueError, planInputs, type InputItem, type InputPlan } from './schedule-inputs.js';
import type { ScheduleStore } from './schedule-store.js';

export const SCHEDULE_LIMIT = 'ci_pipeline_schedules';

export interface NewSchedule {
  description: string;
  ref: string;
  cron: string;
  cron_timezone: string;
  active: boolean;
  inputs?: InputItem[] | null;
}

/** Absent fields stay; a null string field counts as blank. */
export interface ScheduleChanges {
  description?: string | null;
  ref?: string | null;
  cron?: string | null;
  cron_timezone?: string | null;
  active?: boolean | null;
  inputs?: InputItem[] | null;
}

export interface ScheduleServiceOptions {
  store: ScheduleStore;
  refs: RefResolver;
  limits: PlanLimitsService;
  /** The scheduler's own cron, when `next_run_at` should name the tick that fires it. */
  workerCron?: string;
}

type Errors = Record<string, string[]>;

const limitMessage = (limit: number) => `Maximum number of ci pipeline schedules (${limit}) exceeded`;

export const refProjectOf = (project: Project): RefProject => ({
  id: project.id,
  fullPath: `${project.namespace.fullPath}/${project.path}`,
  defaultBranch: project.defaultBranch ?? null,
});

const isBlank = (value: string) => value.trim() === '';

function addError(errors: Errors, key: string, message: string) {
  (errors[key] ??= []).push(message);
}

/** The schedule's text fields the model checks; GitLab limits none of their lengths, so the product's bound applies. */
interface ScheduleText {
  cron: string;
  cron_timezone: string;
  description: string;
}

/** The model rules, in the order GitLab reports them. */
function modelErrors(values: ScheduleText, inputs: InputPlan, limitError: string | null): Errors {
  const errors: Errors = {};
  const tooLong = (value: string) => longerThan(value, TEXT_LIMIT);
  if (limitError) addError(errors, 'base', limitError);
  // Past the bound the syntax is not read at all.
  if (tooLong(values.cron)) addError(errors, 'cron', tooLongMessage(TEXT_LIMIT));
  else if (!isValidCron(values.cron)) addError(errors, 'cron', ' is invalid syntax');
  if (isBlank(values.cron)) addError(errors, 'cron', "can't be blank");
  if (!ianaZoneFor(values.cron_timezone)) addError(errors, 'cron_timezone', ' is invalid syntax');
  if (isBlank(values.cron_timezone)) addError(errors, 'cron_timezone', "can't be blank");
  if (isBlank(values.description)) addError(errors, 'description', "can't be blank");
  if (tooLong(values.description)) addError(errors, 'description', tooLongMessage(TEXT_LIMIT));
  const nameErrors = new Set<string>();
  for (const name of inputs.names) {
    if (isBlank(name)) nameErrors.add("can't be blank");
    if (longerThan(name, INPUT_NAME_LIMIT)) nameErrors.add(tooLongMessage(INPUT_NAME_LIMIT));
  }
  const valueErrors = new Set([...inputs.changes.upsert.values()].map(inputValueError).filter((error) => error !== null));
  if (nameErrors.size === 0 && inputs.duplicates.length > 0) addError(errors, 'inputs', `have duplicate values (${inputs.duplicates.join(', ')})`);
  if (inputs.total > INPUTS_LIMIT) addError(errors, 'inputs', `exceeds the limit of ${INPUTS_LIMIT}.`);
  for (const message of nameErrors) addError(errors, 'inputs.name', message);
  for (const message of valueErrors) addError(errors, 'inputs.value', message);
  return errors;
}

export function createScheduleService({ store, refs, limits, workerCron }: ScheduleServiceOptions) {
  /** A full ref for what was sent, or `{"ref": ["is ambiguous"]}`. */
  async function fullRef(project: Project, ref: string): Promise<string> {
    // A ref past the bound is neither looked up nor kept.
    if (longerThan(ref, TEXT_LIMIT)) throw validationFailed({ ref: [tooLongMessage(TEXT_LIMIT)] });
    if (FULL_REF.test(ref)) return ref;
    const expanded = isBlank(ref) ? null : await refs.expandShortRef(refProjectOf(project), ref);
    if (!expanded || !FULL_REF.test(expanded)) throw validationFailed({ ref: ['is ambiguous'] });
    return expanded;
  }

  async function limitError(projectId: number): Promise<string | null> {
    if (!(await limits.exceeded(SCHEDULE_LIMIT, await store.count(projectId)))) return null;
    return limitMessage(await limits.get(SCHEDULE_LIMIT));
  }

  const nextRun = (cron: string, cronTimezone: string) => nextRunAt(cron, cronTimezone, new Date(), workerCron)!;

  return {
    async create(project: Project, ownerId: number, input: NewSchedule): Promise<PipelineScheduleRow> {
      const ref = await fullRef(project, input.ref);
      const cron = input.cron.trim();
      const inputs = planInputs([], input.inputs ?? []);
      const errors = modelErrors({ ...input, cron }, inputs, await limitError(project.id));
      if (Object.keys(errors).length > 0) throw validationFailed(errors);
      const stored = await store.insert(
        project.id,
        {
          description: input.description,
          ref,
          cron,
          cronTimezone: input.cron_timezone,
          active: input.active,
          nextRunAt: nextRun(cron, input.cron_timezone),
          ownerId,
        },
        inputs.changes,
        await limits.get(SCHEDULE_LIMIT),
      );
      // Another create took the last place since the check above.
      if (!stored) throw validationFailed({ base: [limitMessage(await limits.get(SCHEDULE_LIMIT))] });
      return stored;
    },

    async update(project: Project, schedule: PipelineScheduleRow, changes: ScheduleChanges): Promise<PipelineScheduleRow> {
      const ref = changes.ref === undefined ? schedule.ref : await fullRef(project, changes.ref ?? '');
      const pick = (sent: string | null | undefined, current: string) => (sent === undefined ? current : (sent ?? ''));
      const values = {
        description: pick(changes.description, schedule.description),
        cron: pick(changes.cron, schedule.cron).trim(),
        cron_timezone: pick(changes.cron_timezone, schedule.cronTimezone),
      };
      const existing = changes.inputs ? ((await store.inputsOf([schedule.id])).get(schedule.id) ?? []).map((row) => row.name) : [];
      const inputs = planInputs(existing, changes.inputs ?? []);
      const errors = modelErrors(values, inputs, null);
      if (Object.keys(errors).length > 0) throw validationFailed(errors);
      return store.update(
        schedule,
        {
          description: values.description,
          cron: values.cron,
          cronTimezone: values.cron_timezone,
          ref,
          ...(changes.active === undefined || changes.active === null ? {} : { active: changes.active }),
          nextRunAt: nextRun(values.cron, values.cron_timezone),
        },
        changes.inputs ? inputs.changes : undefined,
      );
    },

    /** Hands the schedule to `ownerId`; saving recomputes `next_run_at` as every save does. */
    takeOwnership(schedule: PipelineScheduleRow, ownerId: number): Promise<PipelineScheduleRow> {
      return store.update(schedule, { ownerId, nextRunAt: nextRun(schedule.cron, schedule.cronTimezone) });
    },
  };
}

export type ScheduleService = ReturnType<typeof createScheduleService>;

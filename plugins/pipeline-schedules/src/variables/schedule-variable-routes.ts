/** `/projects/:id/pipeline_schedules/:pipeline_schedule_id/variables`: a schedule's variables by key. */
import {
  defineRoute,
  f,
  longerThan,
  notFound,
  params,
  reply,
  TEXT_LIMIT,
  tooLongMessage,
  validationFailed,
  type RequestContext,
  type Route,
} from '@forgekit/kernel';
import { authorize, type ScheduleAccess, type ScheduleAbilities } from '../schedules/schedule-access.js';
import { scheduleVariableEntity } from '../schedules/schedule-presenter.js';
import { scheduleVariableSchema } from '../schedules/schedule-schemas.js';
import type { ScheduleVariableStore } from './schedule-variable-store.js';

const PATH = '/projects/:id/pipeline_schedules/:pipeline_schedule_id/variables';
const VARIABLE_TYPES = ['env_var', 'file'] as const;

const KEY_LIMIT = 255;
const TAKEN = 'has already been taken';

/** The key rules of CI variables; GitLab strips the key first. */
function keyErrors(key: string): string[] {
  const errors: string[] = [];
  if (key === '') errors.push("can't be blank");
  if (longerThan(key, KEY_LIMIT)) errors.push(tooLongMessage(KEY_LIMIT));
  if (!/^[a-zA-Z0-9_]+$/.test(key)) errors.push("can contain only letters, digits and '_'.");
  return errors;
}

/** GitLab sets no length on values; the product's bound for unlimited text applies. */
const valueTooLong = (value: string | null | undefined) => !!value && longerThan(value, TEXT_LIMIT);

export function scheduleVariableRoutes(access: ScheduleAccess, variables: ScheduleVariableStore): Route[] {
  /** GitLab's order: the project-level right first, then the schedule lookup and its right. */
  async function writable(ctx: RequestContext, scheduleId: number, right: (abilities: ScheduleAbilities) => boolean) {
    const project = await access.project(ctx);
    authorize(project.setPipelineVariables);
    const abilities = await access.schedule(ctx, scheduleId, project);
    authorize(right(abilities));
    return abilities;
  }

  async function variableOf(scheduleId: number, key: string) {
    const variable = await variables.find(scheduleId, key);
    if (!variable) throw notFound('Pipeline Schedule Variable');
    return variable;
  }

  return [
    defineRoute({
      method: 'POST',
      path: PATH,
      response: { schema: scheduleVariableSchema },
      input: params({ pipeline_schedule_id: f.id(), key: f.string(), value: f.string(), variable_type: f.optional(f.values(VARIABLE_TYPES), 'env_var') }),
      async handler(ctx, input) {
        const { schedule } = await writable(ctx, input.pipeline_schedule_id, (abilities) => abilities.updateSchedule);
        const key = input.key.trim();
        const errors: Record<string, string[]> = {};
        const keyProblems = keyErrors(key);
        if (keyProblems.length === 0 && (await variables.find(schedule.id, key))) keyProblems.push(TAKEN);
        if (keyProblems.length > 0) errors.key = keyProblems;
        if (valueTooLong(input.value)) errors.value = [tooLongMessage(TEXT_LIMIT)];
        if (Object.keys(errors).length > 0) throw validationFailed(errors);
        const variable = await variables.insert(schedule.id, { key, value: input.value, variableType: input.variable_type ?? 'env_var' });
        // A concurrent request took the key since the check above.
        if (!variable) throw validationFailed({ key: [TAKEN] });
        return scheduleVariableEntity(variable);
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${PATH}/:key`,
      response: { schema: scheduleVariableSchema },
      input: params({ pipeline_schedule_id: f.id(), key: f.string() }),
      async handler(ctx, input) {
        const abilities = await access.schedule(ctx, input.pipeline_schedule_id);
        authorize(abilities.adminSchedule);
        return scheduleVariableEntity(await variableOf(abilities.schedule.id, input.key));
      },
    }),
    defineRoute({
      method: 'PUT',
      path: `${PATH}/:key`,
      response: { schema: scheduleVariableSchema },
      input: params({ pipeline_schedule_id: f.id(), key: f.string(), value: f.optional(f.string()), variable_type: f.optional(f.values(VARIABLE_TYPES)) }),
      async handler(ctx, input) {
        const { schedule } = await writable(ctx, input.pipeline_schedule_id, (abilities) => abilities.updateSchedule);
        const variable = await variableOf(schedule.id, input.key);
        if (valueTooLong(input.value)) throw validationFailed({ value: [tooLongMessage(TEXT_LIMIT)] });
        const changes = {
          ...(input.value === undefined || input.value === null ? {} : { value: input.value }),
          ...(input.variable_type ? { variableType: input.variable_type } : {}),
        };
        return scheduleVariableEntity(await variables.update(variable, changes));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: `${PATH}/:key`,
      response: { status: 202, schema: scheduleVariableSchema },
      input: params({ pipeline_schedule_id: f.id(), key: f.string() }),
      async handler(ctx, input) {
        const { schedule } = await writable(ctx, input.pipeline_schedule_id, (abilities) => abilities.adminSchedule);
        const variable = await variableOf(schedule.id, input.key);
        await variables.remove(variable.id);
        return reply(202, scheduleVariableEntity(variable));
      },
    }),
  ];
}

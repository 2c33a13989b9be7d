/** JSON Schemas of the schedule answers (`schedule-presenter.ts`, `schedule-views.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';
import { userBasicSchema } from '@forgekit/plugin-core/contracts';
import { pipelineBasicSchema } from '../pipelines/pipeline-schemas.js';

const orNull = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });

export const scheduleVariableSchema: JsonSchema = {
  type: 'object',
  properties: {
    variable_type: { type: 'string', enum: ['env_var', 'file'] },
    key: { type: 'string' },
    value: { type: 'string' },
    raw: { type: 'boolean' },
  },
  required: ['variable_type', 'key', 'value', 'raw'],
};

/** GitLab's PipelineSchedule; an input's value is any JSON value. */
export const scheduleSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    description: { type: 'string' },
    ref: { type: 'string' },
    cron: { type: 'string' },
    cron_timezone: { type: 'string' },
    next_run_at: { type: 'string', format: 'date-time' },
    active: { type: 'boolean' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    owner: orNull(userBasicSchema),
    inputs: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' }, value: {} }, required: ['name', 'value'] },
    },
  },
  required: ['id', 'description', 'ref', 'cron', 'cron_timezone', 'next_run_at', 'active', 'created_at', 'updated_at', 'owner', 'inputs'],
};

/** GitLab's PipelineScheduleDetails: the newest pipeline, and the variables when the caller may read them. */
export const scheduleDetailsSchema: JsonSchema = {
  allOf: [
    scheduleSchema,
    {
      type: 'object',
      properties: {
        last_pipeline: orNull(pipelineBasicSchema),
        variables: { type: 'array', items: scheduleVariableSchema },
      },
      required: ['last_pipeline'],
    },
  ],
};

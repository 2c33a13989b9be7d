import { PipelineEntity } from './pipeline.js';
import { PipelineIidEntity } from './pipeline-iid.js';
import { PipelineScheduleEntity } from './pipeline-schedule.js';
import { PipelineScheduleInputEntity } from './pipeline-schedule-input.js';
import { PipelineScheduleVariableEntity } from './pipeline-schedule-variable.js';

export const pipelineScheduleEntities = [
  PipelineScheduleEntity,
  PipelineScheduleVariableEntity,
  PipelineScheduleInputEntity,
  PipelineEntity,
  PipelineIidEntity,
];

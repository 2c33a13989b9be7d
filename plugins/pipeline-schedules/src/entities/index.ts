import { Pipeline } from './pipeline.js';
import { PipelineIid } from './pipeline-iid.js';
import { PipelineSchedule } from './pipeline-schedule.js';
import { PipelineScheduleInput } from './pipeline-schedule-input.js';
import { PipelineScheduleVariable } from './pipeline-schedule-variable.js';

export const pipelineScheduleEntities = [PipelineSchedule, PipelineScheduleVariable, PipelineScheduleInput, Pipeline, PipelineIid];

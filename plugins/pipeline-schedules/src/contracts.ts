/** What other plugins may use of pipeline schedules: the event announcing the pipelines they start. */
import { defineEvent } from '@forgekit/kernel';

export interface PipelineCreatedEvent {
  projectId: number;
  pipelineId: number;
  scheduleId: number;
  source: string;
}

export const pipelineScheduleEvents = {
  pipelineCreated: defineEvent<PipelineCreatedEvent>('pipeline.created'),
};

import { pipelineSchedulesPlugin } from './plugin.js';

export {
  pipelineSchedulesPlugin,
  pipelineSchedulesWithRepositoriesPlugin,
  createPipelineSchedulesPlugin,
  PipelineSchedulesConfigSchema,
  type PipelineSchedulesConfig,
  type PipelineSchedulesPluginOptions,
} from './plugin.js';
export { repositoryRefResolver, type RefReader } from './git-refs/repository-ref-resolver.js';
export { defaultRefResolver, isValidBranchName, type RefProject, type RefResolver } from './git-refs/ref-resolver.js';
export { TICK_JOB } from './scheduler/run-due-schedules.js';
export { SCHEDULE_SOURCE } from './pipelines/pipeline-store.js';
export type { PipelineCreatedEvent } from './pipelines/schedule-pipelines.js';
export default pipelineSchedulesPlugin;

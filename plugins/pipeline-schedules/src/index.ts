import { pipelineSchedulesPlugin } from './plugin.js';

export { pipelineSchedulesPlugin, PipelineSchedulesConfigSchema, type PipelineSchedulesConfig } from './plugin.js';
export * from './contracts.js';
export { repositoryRefResolver, type RefReader } from './git-refs/repository-ref-resolver.js';
export { defaultRefResolver, isValidBranchName, type RefProject, type RefResolver } from './git-refs/ref-resolver.js';
export { TICK_JOB } from './scheduler/run-due-schedules.js';
export { SCHEDULE_SOURCE } from './pipelines/pipeline-store.js';
export default pipelineSchedulesPlugin;

import { iterationsPlugin } from './plugin.js';

export * from './contracts.js';
export { iterationsPlugin, SCHEDULE_JOB } from './plugin.js';
export default iterationsPlugin;

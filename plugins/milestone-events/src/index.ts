import { milestoneEventsPlugin } from './plugin.js';

export * from './contracts.js';
export { milestoneEventsPlugin } from './plugin.js';
export default milestoneEventsPlugin;

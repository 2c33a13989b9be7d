import { milestonesPlugin } from './plugin.js';

export * from './contracts.js';
export { milestonesPlugin } from './plugin.js';
export default milestonesPlugin;

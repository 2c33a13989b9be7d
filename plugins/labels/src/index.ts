import { labelsPlugin } from './plugin.js';

export * from './contracts.js';
export { labelsPlugin } from './plugin.js';
export default labelsPlugin;

import { mergeRequestsPlugin } from './plugin.js';

export * from './contracts.js';
export { mergeRequestsPlugin } from './plugin.js';
export default mergeRequestsPlugin;

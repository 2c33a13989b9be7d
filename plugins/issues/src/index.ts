import { issuesPlugin } from './plugin.js';

export * from './contracts.js';
export { issuesPlugin } from './plugin.js';
export default issuesPlugin;

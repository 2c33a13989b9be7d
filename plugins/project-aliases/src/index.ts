import { projectAliasesPlugin } from './plugin.js';

export { projectAliasesPlugin } from './plugin.js';
export default projectAliasesPlugin;

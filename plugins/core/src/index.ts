import { corePlugin } from './plugin.js';

export * from './contracts.js';
export { corePlugin, CoreConfigSchema, type CoreConfig } from './plugin.js';
export { ensureRootToken, ensureRootUser, ROOT_USERNAME } from './bootstrap.js';
export default corePlugin;

import { apiDocsPlugin } from './plugin.js';

export { apiDocsPlugin } from './plugin.js';
export * from './contracts.js';
export default apiDocsPlugin;

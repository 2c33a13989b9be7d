import { uploadsPlugin } from './plugin.js';

export { uploadsPlugin } from './plugin.js';
export * from './contracts.js';
export default uploadsPlugin;

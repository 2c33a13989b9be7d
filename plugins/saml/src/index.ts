import { samlPlugin } from './plugin.js';

export { samlPlugin } from './plugin.js';
export * from './contracts.js';
export default samlPlugin;

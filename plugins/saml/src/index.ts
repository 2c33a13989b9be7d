import { samlPlugin } from './plugin.js';

export { samlPlugin } from './plugin.js';
export default samlPlugin;

import { wikisPlugin } from './plugin.js';

export { wikisPlugin } from './plugin.js';
export default wikisPlugin;

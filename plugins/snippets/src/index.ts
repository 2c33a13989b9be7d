import { snippetsPlugin } from './plugin.js';

export { snippetsPlugin } from './plugin.js';
export default snippetsPlugin;

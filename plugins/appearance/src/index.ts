import { appearancePlugin } from './plugin.js';

export { appearancePlugin } from './plugin.js';
export default appearancePlugin;

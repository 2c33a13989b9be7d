import { keysPlugin } from './plugin.js';

export { keysPlugin } from './plugin.js';
export { keyEvents, type KeyEvent } from './contracts.js';
export default keysPlugin;

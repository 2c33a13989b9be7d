import { followsPlugin } from './plugin.js';

export { followsPlugin } from './plugin.js';
export default followsPlugin;

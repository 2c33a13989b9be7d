import { submodulesPlugin } from './plugin.js';

export { submodulesPlugin } from './plugin.js';
export default submodulesPlugin;

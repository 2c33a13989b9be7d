import { ciVariablesPlugin } from './plugin.js';

export { ciVariablesPlugin } from './plugin.js';
export default ciVariablesPlugin;

import { suggestionsPlugin } from './plugin.js';

export { suggestionsPlugin } from './plugin.js';
export * from './contracts.js';
export default suggestionsPlugin;

import { badgesPlugin } from './plugin.js';

export { badgesPlugin, BadgesConfigSchema, type BadgesConfig } from './plugin.js';
export { PLACEHOLDERS } from './badges/placeholders.js';
export default badgesPlugin;

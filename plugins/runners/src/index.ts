import { runnersPlugin } from './plugin.js';

export { runnersPlugin } from './plugin.js';
export * from './contracts.js';
export { CREATED_TOKEN_PREFIX, REGISTERED_TOKEN_PREFIX } from './runners/runner-store.js';
export { REGISTRATION_TOKEN_PREFIX } from './registration/registration-tokens.js';
export default runnersPlugin;

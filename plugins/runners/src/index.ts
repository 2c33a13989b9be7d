import { runnersPlugin } from './plugin.js';

export { runnersPlugin } from './plugin.js';
export { runnersServiceRef, type RunnersService } from './refs.js';
export type { RunnerRow, RunnerType } from './runners/runner-row.js';
export type { ManagerDetails } from './runners/runner-store.js';
export { CREATED_TOKEN_PREFIX, REGISTERED_TOKEN_PREFIX } from './runners/runner-store.js';
export { REGISTRATION_TOKEN_PREFIX } from './registration/registration-tokens.js';
export default runnersPlugin;

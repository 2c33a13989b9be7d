import { webhooksPlugin } from './plugin.js';

export { webhooksPlugin } from './plugin.js';
export { DELIVER_JOB, RECOVER_JOB } from './delivery/delivery-service.js';
export default webhooksPlugin;

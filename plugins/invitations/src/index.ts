import { invitationsPlugin } from './plugin.js';

export { invitationsPlugin, InvitationsConfigSchema, type InvitationsConfig } from './plugin.js';
export default invitationsPlugin;

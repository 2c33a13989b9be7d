import { enterpriseUsersPlugin } from './plugin.js';

export { enterpriseUsersPlugin } from './plugin.js';
export default enterpriseUsersPlugin;

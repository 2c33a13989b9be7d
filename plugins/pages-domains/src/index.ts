import { pagesDomainsPlugin } from './plugin.js';

export { createPagesDomainsPlugin, pagesDomainsPlugin, VERIFY_JOB, type PagesDomainsOptions } from './plugin.js';
export default pagesDomainsPlugin;

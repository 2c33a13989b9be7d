export { startServer, type StartedServer } from './server.js';
export { allPlugins } from './plugins.js';

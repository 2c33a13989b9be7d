import { clusterAgentsPlugin } from './plugin.js';

export { clusterAgentsPlugin, ClusterAgentsConfigSchema, type ClusterAgentsConfig } from './plugin.js';
export * from './contracts.js';
export { AGENT_TOKEN_PREFIX } from './tokens/token-service.js';
export default clusterAgentsPlugin;

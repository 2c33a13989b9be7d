import { ClusterAgent } from './cluster-agent.js';
import { ClusterAgentToken } from './cluster-agent-token.js';
import { ClusterAgentUrlConfiguration } from './cluster-agent-url-configuration.js';

export const clusterAgentEntities = [ClusterAgent, ClusterAgentToken, ClusterAgentUrlConfiguration];

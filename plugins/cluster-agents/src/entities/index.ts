import { ClusterAgentEntity } from './cluster-agent.js';
import { ClusterAgentTokenEntity } from './cluster-agent-token.js';
import { ClusterAgentUrlConfigurationEntity } from './cluster-agent-url-configuration.js';

export const clusterAgentEntities = [ClusterAgentEntity, ClusterAgentTokenEntity, ClusterAgentUrlConfigurationEntity];

/** GitLab's AgentUrlConfiguration entity: key and certificates as base64, never the client key. */
import type { ClusterAgentUrlConfigurationRow } from '../entities/cluster-agent-url-configuration.js';

export function presentUrlConfiguration(config: ClusterAgentUrlConfigurationRow) {
  return {
    id: config.id,
    agent_id: config.agentId,
    url: config.url,
    public_key: config.publicKey,
    client_cert: config.clientCert,
    ca_cert: config.caCert,
    tls_host: config.tlsHost,
  };
}

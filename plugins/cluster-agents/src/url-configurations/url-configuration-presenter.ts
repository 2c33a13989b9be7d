/** GitLab's AgentUrlConfiguration entity: key and certificates as base64, never the client key. */
import type { UrlConfigurationRow } from '../entities/cluster-agent-url-configuration.js';

export function presentUrlConfiguration(config: UrlConfigurationRow) {
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

/** GitLab's AgentUrlConfiguration entity: key and certificates as base64, never the client key. */
import type { UrlConfigurationRow } from '../shared/rows.js';

export function presentUrlConfiguration(config: UrlConfigurationRow) {
  return {
    id: config.id,
    agent_id: config.agent_id,
    url: config.url,
    public_key: config.public_key,
    client_cert: config.client_cert,
    ca_cert: config.ca_cert,
    tls_host: config.tls_host,
  };
}

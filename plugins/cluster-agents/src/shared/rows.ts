/** Row shapes of this plugin's tables (snake_case, raw driver values). */
export interface AgentRow {
  id: number;
  project_id: number;
  name: string;
  created_by_user_id: number | null;
  created_at: unknown;
  updated_at: unknown;
}

/** An agent with whether a URL configuration makes it receptive. */
export interface AgentWithReceptive extends AgentRow {
  url_configuration_id: number | null;
}

export type TokenStatus = 'active' | 'revoked';

export interface TokenRow {
  id: number;
  agent_id: number;
  project_id: number;
  name: string;
  description: string | null;
  token_digest: string;
  status: TokenStatus;
  created_by_user_id: number | null;
  last_used_at: unknown;
  created_at: unknown;
  updated_at: unknown;
}

export interface UrlConfigurationRow {
  id: number;
  agent_id: number;
  project_id: number;
  created_by_user_id: number | null;
  url: string;
  ca_cert: string | null;
  tls_host: string | null;
  client_cert: string | null;
  client_key: string | null;
  public_key: string | null;
  private_key: string | null;
  created_at: unknown;
  updated_at: unknown;
}

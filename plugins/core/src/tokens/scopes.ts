/** Token scopes as GitLab names them, and the prefix of secrets this server issues. */
export const TOKEN_PREFIX = 'fkpat-';

export const ALL_SCOPES = [
  'api',
  'read_api',
  'read_user',
  'create_runner',
  'manage_runner',
  'k8s_proxy',
  'self_rotate',
  'read_repository',
  'write_repository',
  'read_registry',
  'write_registry',
  'read_virtual_registry',
  'write_virtual_registry',
  'read_observability',
  'write_observability',
  'ai_features',
  'sudo',
  'admin_mode',
  'read_service_ping',
] as const;

export const ADMIN_ONLY_SCOPES = new Set(['sudo', 'admin_mode', 'read_service_ping']);

/** Row shapes as the core tables hold them (snake_case, raw driver values). */
export interface UserRow {
  id: number;
  username: string;
  name: string;
  email: string;
  password_hash: string | null;
  state: string;
  admin: unknown;
  external: unknown;
  bot: unknown;
  private_profile: unknown;
  can_create_group: unknown;
  projects_limit: number;
  bio: string;
  location: string;
  public_email: string | null;
  website_url: string;
  organization: string;
  job_title: string;
  pronouns: string | null;
  note: string | null;
  namespace_id: number | null;
  created_by_id: number | null;
  confirmed_at: unknown;
  last_activity_on: string | null;
  created_at: unknown;
  updated_at: unknown;
}

export interface NamespaceRow {
  id: number;
  name: string;
  path: string;
  kind: 'user' | 'group';
  parent_id: number | null;
  full_path: string;
  full_name: string;
  traversal_path: string;
  owner_id: number | null;
  visibility_level: number;
  description: string;
  settings: string;
  created_at: unknown;
  updated_at: unknown;
}

export interface ProjectRow {
  id: number;
  name: string;
  path: string;
  namespace_id: number;
  description: string;
  visibility_level: number;
  default_branch: string | null;
  repository_storage: string;
  creator_id: number | null;
  archived: unknown;
  topics: string;
  settings: string;
  created_at: unknown;
  updated_at: unknown;
  last_activity_at: unknown;
}

/** A project joined with its namespace (columns prefixed `ns_`). */
export interface ProjectWithNamespace extends ProjectRow {
  ns_name: string;
  ns_path: string;
  ns_kind: 'user' | 'group';
  ns_full_path: string;
  ns_full_name: string;
  ns_parent_id: number | null;
  ns_traversal_path: string;
  ns_owner_id: number | null;
  ns_visibility_level: number;
}

export interface MemberRow {
  id: number;
  source_type: 'Project' | 'Namespace';
  source_id: number;
  user_id: number;
  access_level: number;
  expires_at: string | null;
  created_by_id: number | null;
  created_at: unknown;
  updated_at: unknown;
}

/** Ids in a traversal path `/1/5/9/`, root first. */
export const traversalIds = (path: string) => path.split('/').filter(Boolean).map(Number);

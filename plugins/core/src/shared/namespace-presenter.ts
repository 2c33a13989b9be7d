import type { NamespaceRow } from '../entities/namespace.js';

export interface NamespaceLike {
  id: number;
  name: string;
  path: string;
  kind: 'user' | 'group';
  full_path: string;
  parent_id?: number | null;
}

export function namespaceBasic(ns: NamespaceLike, externalUrl: string) {
  return {
    id: ns.id,
    name: ns.name,
    path: ns.path,
    kind: ns.kind,
    full_path: ns.full_path,
    parent_id: ns.parent_id ?? null,
    avatar_url: null,
    web_url: ns.kind === 'group' ? `${externalUrl}/groups/${ns.full_path}` : `${externalUrl}/${ns.full_path}`,
  };
}

export const namespaceOf = (row: NamespaceRow): NamespaceLike => row;

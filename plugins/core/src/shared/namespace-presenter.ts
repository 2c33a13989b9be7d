import type { Namespace } from '../contracts.js';

/** What GitLab's NamespaceBasic shows of a namespace (a project carries as much of its own). */
export type NamespaceBasicSource = Pick<Namespace, 'id' | 'name' | 'path' | 'kind' | 'fullPath' | 'parentId'>;

export function namespaceBasic(ns: NamespaceBasicSource, externalUrl: string) {
  return {
    id: ns.id,
    name: ns.name,
    path: ns.path,
    kind: ns.kind,
    full_path: ns.fullPath,
    parent_id: ns.parentId ?? null,
    avatar_url: null,
    web_url: ns.kind === 'group' ? `${externalUrl}/groups/${ns.fullPath}` : `${externalUrl}/${ns.fullPath}`,
  };
}

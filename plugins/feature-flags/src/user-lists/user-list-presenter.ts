/** GitLab's user list entities: the basic form inside strategies, the full form of the user list API. */
import { toIso } from '@forgekit/kernel/orm';
import type { ProjectWithNamespace } from '@forgekit/plugin-core';
import type { UserListRow } from '../shared/rows.js';

export const userListBasic = (list: UserListRow) => ({ id: list.id, iid: list.iid, name: list.name, user_xids: list.user_xids });

/** The web path of a list, below the server's relative root (the path part of its external URL). */
function webPath(project: ProjectWithNamespace, list: UserListRow, externalUrl: string) {
  const root = new URL(externalUrl).pathname.replace(/\/+$/, '');
  return `${root}/${project.ns_full_path}/${project.path}/-/feature_flags_user_lists/${list.iid}`;
}

export function userListEntity(list: UserListRow, project: ProjectWithNamespace, externalUrl: string) {
  const path = webPath(project, list, externalUrl);
  return {
    ...userListBasic(list),
    project_id: list.project_id,
    created_at: toIso(list.created_at),
    updated_at: toIso(list.updated_at),
    path,
    edit_path: `${path}/edit`,
  };
}

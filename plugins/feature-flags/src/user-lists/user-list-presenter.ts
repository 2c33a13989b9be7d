/** GitLab's user list entities: the basic form inside strategies, the full form of the user list API. */
import type { Project } from '@forgekit/plugin-core/contracts';
import type { FeatureFlagUserListRow } from '../entities/feature-flag-user-list.js';

export const userListBasic = (list: FeatureFlagUserListRow) => ({ id: list.id, iid: list.iid, name: list.name, user_xids: list.userXids });

/** The web path of a list, below the server's relative root (the path part of its external URL). */
function webPath(project: Project, list: FeatureFlagUserListRow, externalUrl: string) {
  const root = new URL(externalUrl).pathname.replace(/\/+$/, '');
  return `${root}/${project.namespace.fullPath}/${project.path}/-/feature_flags_user_lists/${list.iid}`;
}

export function userListEntity(list: FeatureFlagUserListRow, project: Project, externalUrl: string) {
  const path = webPath(project, list, externalUrl);
  return {
    ...userListBasic(list),
    project_id: list.projectId,
    created_at: list.createdAt.toISOString(),
    updated_at: list.updatedAt.toISOString(),
    path,
    edit_path: `${path}/edit`,
  };
}

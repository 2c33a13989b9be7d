import { toIso } from '@forgekit/kernel/orm';
import type { PipelineRow } from '../shared/rows.js';

/** GitLab's PipelineBasic entity; `projectPath` is `group/project`. */
export function pipelineBasic(row: PipelineRow, projectPath: string, externalUrl: string) {
  return {
    id: row.id,
    iid: row.iid,
    project_id: row.project_id,
    sha: row.sha,
    ref: row.ref,
    status: row.status,
    source: row.source,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
    web_url: `${externalUrl}/${projectPath}/-/pipelines/${row.id}`,
  };
}

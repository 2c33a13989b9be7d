import type { PipelineRow } from '../entities/pipeline.js';

/** GitLab's PipelineBasic entity; `projectPath` is `group/project`. */
export function pipelineBasic(row: PipelineRow, projectPath: string, externalUrl: string) {
  return {
    id: row.id,
    iid: row.iid,
    project_id: row.projectId,
    sha: row.sha ?? null,
    ref: row.ref,
    status: row.status,
    source: row.source,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    web_url: `${externalUrl}/${projectPath}/-/pipelines/${row.id}`,
  };
}

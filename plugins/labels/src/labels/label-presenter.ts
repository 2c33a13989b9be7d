/** GitLab's label entities: `Label` (group routes), `ProjectLabel` (project routes) and the `LabelBasic` issues embed. */
import { renderMarkdown } from '@forgekit/kernel';
import type { Label, LabelCounts, LabelDetails } from '../contracts.js';
import { textColorFor } from './label-rules.js';

export interface LabelExtras {
  subscribed: boolean;
  counts?: { issues: LabelCounts; mergeRequests: LabelCounts };
  /** Project routes only: the label's priority in the project. */
  project?: { priority: number | null };
}

export function presentDetails(label: Label): LabelDetails {
  return {
    id: label.id,
    name: label.title,
    color: label.color,
    description: label.description,
    description_html: renderMarkdown(label.description),
    text_color: textColorFor(label.color),
    archived: label.archived,
  };
}

export function presentLabel(label: Label, extras: LabelExtras) {
  const counts = extras.counts && {
    open_issues_count: extras.counts.issues.opened,
    closed_issues_count: extras.counts.issues.closed,
    open_merge_requests_count: extras.counts.mergeRequests.opened,
  };
  const project = extras.project && { priority: extras.project.priority, is_project_label: label.projectId !== null };
  return { ...presentDetails(label), ...counts, subscribed: extras.subscribed, ...project };
}

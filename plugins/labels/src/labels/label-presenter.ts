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

/** Rendered descriptions by text: rendering costs far more than the rest of a label, and lists show the same few labels over and over. */
const renderedDescriptions = new Map<string, string>();
const RENDERED_KEPT = 2000;
/** Longer descriptions are rendered every time, so the cache stays small. */
const CACHED_LENGTH = 2000;

function descriptionHtml(description: string | null): string {
  if (!description) return '';
  if (description.length > CACHED_LENGTH) return renderMarkdown(description);
  let html = renderedDescriptions.get(description);
  if (html === undefined) {
    html = renderMarkdown(description);
    if (renderedDescriptions.size >= RENDERED_KEPT) renderedDescriptions.delete(renderedDescriptions.keys().next().value!);
    renderedDescriptions.set(description, html);
  }
  return html;
}

export function presentDetails(label: Label): LabelDetails {
  return {
    id: label.id,
    name: label.title,
    color: label.color,
    description: label.description,
    description_html: descriptionHtml(label.description),
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

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

/** Text colours by label colour: lists show the same few colours over and over. */
const textColors = new Map<string, string>();

function textColorOf(color: string): string {
  let text = textColors.get(color);
  if (text === undefined) {
    text = textColorFor(color);
    if (textColors.size >= RENDERED_KEPT) textColors.clear();
    textColors.set(color, text);
  }
  return text;
}

export function presentDetails(label: Label): LabelDetails {
  return {
    id: label.id,
    name: label.title,
    color: label.color,
    description: label.description,
    description_html: descriptionHtml(label.description),
    text_color: textColorOf(label.color),
    archived: label.archived,
  };
}

export interface PresentedLabel extends LabelDetails {
  open_issues_count?: number;
  closed_issues_count?: number;
  open_merge_requests_count?: number;
  subscribed: boolean;
  priority?: number | null;
  is_project_label?: boolean;
}

/** Fields are added in GitLab's order rather than spread from partial objects: lists present many labels. */
export function presentLabel(label: Label, extras: LabelExtras): PresentedLabel {
  const body = presentDetails(label) as PresentedLabel;
  if (extras.counts) {
    body.open_issues_count = extras.counts.issues.opened;
    body.closed_issues_count = extras.counts.issues.closed;
    body.open_merge_requests_count = extras.counts.mergeRequests.opened;
  }
  body.subscribed = extras.subscribed;
  if (extras.project) {
    body.priority = extras.project.priority;
    body.is_project_label = label.projectId !== null;
  }
  return body;
}

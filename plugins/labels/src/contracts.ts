/** What other plugins may use of labels: the service issues and merge requests take labels from, and label events. */
import { createServiceRef, defineEvent, type Principal } from '@forgekit/kernel';
import type { GroupAccess, ProjectAccess } from '@forgekit/plugin-core/contracts';

/** A project or group label. */
export interface Label {
  id: number;
  title: string;
  /** `#RRGGBB` (CSS colour names are stored converted). */
  color: string;
  description: string | null;
  projectId: number | null;
  groupId: number | null;
  archived: boolean;
  createdAt: Date;
  updatedAt: Date;
  /** Raised by every update of the row: the version the presented cache keeps a label by. */
  lockVersion?: number;
}

export interface LabelCounts {
  opened: number;
  closed: number;
}

/**
 * Whose counts: the caller's, within the project or group whose labels are listed. An
 * item the caller could not list (a confidential issue, one in a project they cannot see)
 * is not counted, as GitLab counts through its finders.
 */
export type LabelCountScope = { user: Principal } & ({ kind: 'project'; access: ProjectAccess } | { kind: 'group'; access: GroupAccess });

/** Counts of one kind of labelled item (issues, merge requests) per label, as `scope` sees them; labels it has none of may be left out. */
export type LabelCounter = (labelIds: readonly number[], scope: LabelCountScope) => Promise<ReadonlyMap<number, LabelCounts>>;

/** GitLab's label object inside an issue or merge request `with_labels_details`. */
export interface LabelDetails {
  id: number;
  name: string;
  color: string;
  description: string | null;
  description_html: string;
  text_color: string;
  archived: boolean;
}

/** A label as an item of a project uses it. */
export interface ProjectLabel {
  projectId: number;
  labelId: number;
}

/** A label with its priority in the project (the lower, the higher). */
export interface RankedLabel extends ProjectLabel {
  priority: number;
}

export interface LabelsService {
  /**
   * The labels of these titles that a project may use (its own and its ancestor groups'),
   * the project's own first. With `create`, titles no label has become new project labels,
   * as GitLab's issue API does.
   */
  forProject(projectId: number, titles: readonly string[], options?: { create?: { userId: number } }): Promise<Label[]>;
  /** Labels by id, whoever owns them; unknown ids are left out. */
  byIds(ids: readonly number[]): Promise<Label[]>;
  /** Ids of the labels with these titles that the project may use (filters). */
  idsMatching(projectId: number, titles: readonly string[]): Promise<number[]>;
  /** The priority of each of these labels, in the project beside it, that has one there (issue and merge request orders). */
  prioritiesIn(labels: readonly ProjectLabel[]): Promise<RankedLabel[]>;
  /** An item's `labels`: titles in GitLab's order, or detail objects. */
  present(labels: readonly Label[], withDetails: false): string[];
  present(labels: readonly Label[], withDetails: true): LabelDetails[];
  /** `with_counts` asks each registered counter; a kind with no counter counts zero. */
  registerCounts(kind: 'issues' | 'merge_requests', counter: LabelCounter): void;
}

export const labelsServiceRef = createServiceRef<LabelsService>('labels.labels');

type Changes = Readonly<Record<string, { previous: unknown; current: unknown }>>;
interface LabelEvent {
  labelId: number;
  projectId: number | null;
  groupId: number | null;
  /** Who did it; null for the system. */
  userId: number | null;
}

export const labelEvents = {
  created: defineEvent<LabelEvent>('label.created'),
  updated: defineEvent<LabelEvent & { changes: Changes }>('label.updated'),
  deleted: defineEvent<LabelEvent & { title: string }>('label.deleted'),
  /**
   * Promotion merged the labels `from` into the group label `to`. Whatever carries a `from`
   * label must carry `to` instead (once); the `from` labels' own `label.deleted` follow this event.
   */
  merged: defineEvent<{ from: number[]; to: number; groupId: number; userId: number | null }>('label.merged'),
};
export { labelDetailsSchema } from './labels/label-schemas.js';

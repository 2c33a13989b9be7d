/** What other plugins may use of merge requests: the domain type and the events webhooks need. */
import { createServiceRef, defineEvent } from '@forgekit/kernel';

export type MergeRequestState = 'opened' | 'closed' | 'merged' | 'locked';

export interface MergeRequest {
  id: number;
  iid: number;
  projectId: number;
  title: string;
  state: MergeRequestState;
  sourceBranch: string;
  targetBranch: string;
  authorId: number;
  description: string | null;
  draft: boolean;
  milestoneId: number | null;
  headSha: string | null;
  mergeCommitSha: string | null;
  mergedAt: Date | null;
  closedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  assigneeIds: number[];
  reviewerIds: number[];
  labelIds: number[];
}

/** Merge requests read by id, for plugins that describe them (suggestions, webhook payloads). */
export interface MergeRequestsService {
  findById(id: number): Promise<MergeRequest | null>;
  byIds(ids: readonly number[]): Promise<MergeRequest[]>;
  /** The project's most recently created merge request. */
  latestOf(projectId: number): Promise<MergeRequest | undefined>;
}

export const mergeRequestsServiceRef = createServiceRef<MergeRequestsService>('merge-requests.merge-requests');

type Changes = Readonly<Record<string, { previous: unknown; current: unknown }>>;
interface MergeRequestEvent {
  mergeRequestId: number;
  projectId: number;
  userId: number;
}

/** Carry what GitLab's `object_kind: merge_request` webhook payloads need: the ids, who, and the changed fields. */
export const mergeRequestEvents = {
  opened: defineEvent<MergeRequestEvent>('merge-request.opened'),
  updated: defineEvent<MergeRequestEvent & { changes: Changes }>('merge-request.updated'),
  closed: defineEvent<MergeRequestEvent>('merge-request.closed'),
  reopened: defineEvent<MergeRequestEvent>('merge-request.reopened'),
  merged: defineEvent<MergeRequestEvent & { mergeCommitSha: string }>('merge-request.merged'),
  deleted: defineEvent<MergeRequestEvent & { iid: number }>('merge-request.deleted'),
};

/** What other plugins may use of issues: lookups with GitLab's visibility rules, the wire entity, events. */
import { createServiceRef, defineEvent, type Principal } from '@forgekit/kernel';

export interface Issue {
  id: number;
  iid: number;
  projectId: number;
  title: string;
  description: string | null;
  state: 'opened' | 'closed';
  confidential: boolean;
  authorId: number;
  milestoneId: number | null;
  iterationId: number | null;
  dueDate: string | null;
  closedAt: Date | null;
  closedById: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface IssuesService {
  /** The issue the caller may read, by project and iid; GitLab's 404s otherwise (confidential issues included). */
  findForUser(user: Principal | null, projectIdOrPath: string, iid: number | string): Promise<Issue>;
  byIds(ids: readonly number[]): Promise<Issue[]>;
  /** The project's most recently created issue (webhook tests describe it). */
  latestOf(projectId: number): Promise<Issue | undefined>;
  /** GitLab's Issue entity for the caller. */
  entity(issue: Issue, user: Principal | null): Promise<Record<string, unknown>>;
}

export const issuesServiceRef = createServiceRef<IssuesService>('issues.issues');

type Changes = Readonly<Record<string, { previous: unknown; current: unknown }>>;
interface IssueEvent {
  issueId: number;
  projectId: number;
  userId: number;
}

/** Carry what GitLab's `object_kind: issue` webhook payloads need: the ids, who, and the changed fields. */
export const issueEvents = {
  created: defineEvent<IssueEvent>('issue.created'),
  updated: defineEvent<IssueEvent & { changes: Changes }>('issue.updated'),
  closed: defineEvent<IssueEvent>('issue.closed'),
  reopened: defineEvent<IssueEvent>('issue.reopened'),
  deleted: defineEvent<IssueEvent & { iid: number }>('issue.deleted'),
};
export { issueSchema } from './issues/issue-schemas.js';

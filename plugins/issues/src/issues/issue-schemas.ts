/** JSON Schemas of the issue answers (`issue-presenter.ts`), for the API description. */
import { type JsonSchema, nullable } from '@forgekit/kernel';
import { userBasicSchema } from '@forgekit/plugin-core/contracts';
import { iterationSchema } from '@forgekit/plugin-iterations/contracts';
import { labelDetailsSchema } from '@forgekit/plugin-labels/contracts';
import { milestoneSchema } from '@forgekit/plugin-milestones/contracts';

const orNull = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
const count: JsonSchema = { type: 'integer' };
const text: JsonSchema = { type: 'string' };

/** GitLab's IssueBasic: what lists show of each issue. */
export const issueBasicSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    iid: { type: 'integer' },
    project_id: { type: 'integer' },
    title: text,
    description: nullable('string'),
    state: { type: 'string', enum: ['opened', 'closed'] },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    closed_at: { type: ['string', 'null'], format: 'date-time' },
    closed_by: orNull(userBasicSchema),
    // Titles, or detail objects `with_labels_details`.
    labels: { type: 'array', items: { anyOf: [text, labelDetailsSchema] } },
    milestone: orNull(milestoneSchema),
    assignees: { type: 'array', items: userBasicSchema },
    author: orNull(userBasicSchema),
    type: { type: 'string', const: 'ISSUE' },
    assignee: orNull(userBasicSchema),
    user_notes_count: count,
    merge_requests_count: count,
    upvotes: count,
    downvotes: count,
    due_date: { type: ['string', 'null'], format: 'date' },
    confidential: { type: 'boolean' },
    discussion_locked: nullable('boolean'),
    issue_type: text,
    web_url: text,
    time_stats: {
      type: 'object',
      properties: {
        time_estimate: count,
        total_time_spent: count,
        human_time_estimate: nullable('string'),
        human_total_time_spent: nullable('string'),
      },
      required: ['time_estimate', 'total_time_spent', 'human_time_estimate', 'human_total_time_spent'],
    },
    task_completion_status: {
      type: 'object',
      properties: { count, completed_count: count },
      required: ['count', 'completed_count'],
    },
    weight: nullable('integer'),
    blocking_issues_count: count,
    iteration: orNull(iterationSchema),
    health_status: nullable('string'),
    has_tasks: { type: 'boolean' },
    // Only when the description holds tasks: `1 of 2 checklist items completed`.
    task_status: text,
    _links: {
      type: 'object',
      properties: {
        self: text,
        notes: text,
        award_emoji: text,
        project: text,
        closed_as_duplicate_of: nullable('string'),
      },
      required: ['self', 'notes', 'award_emoji', 'project', 'closed_as_duplicate_of'],
    },
    references: {
      type: 'object',
      properties: { short: text, relative: text, full: text },
      required: ['short', 'relative', 'full'],
    },
    severity: text,
    moved_to_id: nullable('integer'),
    imported: { type: 'boolean' },
    imported_from: text,
    service_desk_reply_to: nullable('string'),
  },
  required: [
    'id',
    'iid',
    'project_id',
    'title',
    'description',
    'state',
    'created_at',
    'updated_at',
    'closed_at',
    'closed_by',
    'labels',
    'milestone',
    'assignees',
    'author',
    'type',
    'assignee',
    'user_notes_count',
    'merge_requests_count',
    'upvotes',
    'downvotes',
    'due_date',
    'confidential',
    'discussion_locked',
    'issue_type',
    'web_url',
    'time_stats',
    'task_completion_status',
    'weight',
    'blocking_issues_count',
    'iteration',
    'health_status',
    'has_tasks',
    '_links',
    'references',
    'severity',
    'moved_to_id',
    'imported',
    'imported_from',
    'service_desk_reply_to',
  ],
};

/** GitLab's Issue: a single issue, as created, read or changed. */
export const issueSchema: JsonSchema = {
  allOf: [issueBasicSchema, { type: 'object', properties: { subscribed: { type: 'boolean' } }, required: ['subscribed'] }],
};

/** `issues_statistics`: the list's filters counted in both states. */
export const issueStatisticsSchema: JsonSchema = {
  type: 'object',
  properties: {
    statistics: {
      type: 'object',
      properties: {
        counts: {
          type: 'object',
          properties: { all: count, closed: count, opened: count },
          required: ['all', 'closed', 'opened'],
        },
      },
      required: ['counts'],
    },
  },
  required: ['statistics'],
};

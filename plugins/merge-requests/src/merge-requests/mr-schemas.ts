/** JSON Schemas of the merge request answers (`mr-presenter.ts`, `mr-routes.ts`), for the API description. */
import { type JsonSchema, nullable } from '@forgekit/kernel';
import { userBasicSchema } from '@forgekit/plugin-core/contracts';
import { commitSchema, diffSchema } from '@forgekit/plugin-repositories/contracts';

const text: JsonSchema = { type: 'string' };
const time: JsonSchema = { type: 'string', format: 'date-time' };
const nullableTime: JsonSchema = { type: ['string', 'null'], format: 'date-time' };
const nullableUser: JsonSchema = { anyOf: [userBasicSchema, { type: 'null' }] };
const integer: JsonSchema = { type: 'integer' };
const flag: JsonSchema = { type: 'boolean' };

/** GitLab's MergeRequestSimple (`view=simple`): the fields every merge request answer starts with. */
export const mergeRequestSimpleSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: integer,
    iid: integer,
    project_id: integer,
    title: text,
    description: nullable('string'),
    state: { enum: ['opened', 'closed', 'merged', 'locked'] },
    created_at: time,
    updated_at: time,
    web_url: text,
  },
  required: ['id', 'iid', 'project_id', 'title', 'description', 'state', 'created_at', 'updated_at', 'web_url'],
};

/** GitLab's MergeRequestBasic, as lists show it (`render_html` adds the two `_html` fields). */
export const mergeRequestBasicSchema: JsonSchema = {
  allOf: [
    mergeRequestSimpleSchema,
    {
      type: 'object',
      properties: {
        merged_by: nullableUser,
        merge_user: nullableUser,
        merged_at: nullableTime,
        merge_after: nullableTime,
        closed_by: nullableUser,
        closed_at: nullableTime,
        target_branch: text,
        source_branch: text,
        user_notes_count: integer,
        upvotes: integer,
        downvotes: integer,
        author: nullableUser,
        assignees: { type: 'array', items: userBasicSchema },
        assignee: nullableUser,
        reviewers: { type: 'array', items: userBasicSchema },
        source_project_id: integer,
        target_project_id: integer,
        // Titles, or (`with_labels_details`) the labels themselves.
        labels: { type: 'array', items: { anyOf: [text, { type: 'object', properties: { id: integer, name: text }, required: ['id', 'name'] }] } },
        draft: flag,
        work_in_progress: flag,
        imported: flag,
        imported_from: text,
        milestone: { anyOf: [{ type: 'object', properties: { id: integer }, required: ['id'] }, { type: 'null' }] },
        merge_when_pipeline_succeeds: flag,
        merge_status: { enum: ['can_be_merged', 'cannot_be_merged', 'unchecked', 'checking'] },
        detailed_merge_status: text,
        sha: nullable('string'),
        merge_commit_sha: nullable('string'),
        squash_commit_sha: nullable('string'),
        discussion_locked: nullable('boolean'),
        should_remove_source_branch: nullable('boolean'),
        force_remove_source_branch: flag,
        prepared_at: time,
        reference: text,
        references: {
          type: 'object',
          properties: { short: text, relative: text, full: text },
          required: ['short', 'relative', 'full'],
        },
        time_stats: {
          type: 'object',
          properties: {
            time_estimate: integer,
            total_time_spent: integer,
            human_time_estimate: nullable('string'),
            human_total_time_spent: nullable('string'),
          },
          required: ['time_estimate', 'total_time_spent', 'human_time_estimate', 'human_total_time_spent'],
        },
        squash: flag,
        squash_on_merge: flag,
        task_completion_status: { type: 'object', properties: { count: integer, completed_count: integer }, required: ['count', 'completed_count'] },
        has_conflicts: flag,
        blocking_discussions_resolved: flag,
        approvals_before_merge: nullable('integer'),
        title_html: text,
        description_html: text,
      },
      required: [
        'merged_by',
        'merge_user',
        'merged_at',
        'merge_after',
        'closed_by',
        'closed_at',
        'target_branch',
        'source_branch',
        'user_notes_count',
        'upvotes',
        'downvotes',
        'author',
        'assignees',
        'assignee',
        'reviewers',
        'source_project_id',
        'target_project_id',
        'labels',
        'draft',
        'work_in_progress',
        'imported',
        'imported_from',
        'milestone',
        'merge_when_pipeline_succeeds',
        'merge_status',
        'detailed_merge_status',
        'sha',
        'merge_commit_sha',
        'squash_commit_sha',
        'discussion_locked',
        'should_remove_source_branch',
        'force_remove_source_branch',
        'prepared_at',
        'reference',
        'references',
        'time_stats',
        'squash',
        'squash_on_merge',
        'task_completion_status',
        'has_conflicts',
        'blocking_discussions_resolved',
        'approvals_before_merge',
      ],
    },
  ],
};

/** One item of a merge request list: MergeRequestBasic, or MergeRequestSimple with `view=simple`. */
export const mergeRequestListItemSchema: JsonSchema = { anyOf: [mergeRequestBasicSchema, mergeRequestSimpleSchema] };

const diffRefsSchema: JsonSchema = {
  type: 'object',
  properties: { base_sha: nullable('string'), head_sha: nullable('string'), start_sha: nullable('string') },
  required: ['base_sha', 'head_sha', 'start_sha'],
};

/** GitLab's MergeRequest: one merge request (show, create, update, merge). */
export const mergeRequestSchema: JsonSchema = {
  allOf: [
    mergeRequestBasicSchema,
    {
      type: 'object',
      properties: {
        labels: { type: 'array', items: text },
        subscribed: flag,
        changes_count: nullable('string'),
        latest_build_started_at: nullableTime,
        latest_build_finished_at: nullableTime,
        first_deployed_to_production_at: nullableTime,
        pipeline: nullable('object'),
        head_pipeline: nullable('object'),
        diff_refs: diffRefsSchema,
        merge_error: nullable('string'),
        first_contribution: flag,
        allow_collaboration: flag,
        allow_maintainer_to_push: flag,
        user: { type: 'object', properties: { can_merge: flag }, required: ['can_merge'] },
      },
      required: [
        'subscribed',
        'changes_count',
        'latest_build_started_at',
        'latest_build_finished_at',
        'first_deployed_to_production_at',
        'pipeline',
        'head_pipeline',
        'diff_refs',
        'merge_error',
        'first_contribution',
        'allow_collaboration',
        'allow_maintainer_to_push',
        'user',
      ],
    },
  ],
};

/** `GET .../changes`: the merge request with its diffs. */
export const mergeRequestChangesSchema: JsonSchema = {
  allOf: [
    mergeRequestSchema,
    {
      type: 'object',
      properties: { changes: { type: 'array', items: diffSchema }, overflow: flag },
      required: ['changes', 'overflow'],
    },
  ],
};

/** GitLab's MergeRequestDiff: one version of a merge request's diff. */
export const mergeRequestVersionSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: integer,
    head_commit_sha: text,
    base_commit_sha: nullable('string'),
    start_commit_sha: nullable('string'),
    created_at: time,
    merge_request_id: integer,
    state: text,
    real_size: nullable('string'),
    patch_id_sha: nullable('string'),
  },
  required: ['id', 'head_commit_sha', 'base_commit_sha', 'start_commit_sha', 'created_at', 'merge_request_id', 'state', 'real_size', 'patch_id_sha'],
};

/** GitLab's MergeRequestDiffFull: a version with its commits and diffs. */
export const mergeRequestVersionDetailSchema: JsonSchema = {
  allOf: [
    mergeRequestVersionSchema,
    {
      type: 'object',
      properties: { commits: { type: 'array', items: commitSchema }, diffs: { type: 'array', items: diffSchema } },
      required: ['commits', 'diffs'],
    },
  ],
};

/**
 * Comments on issues and merge requests as GitLab's note hooks. Internal notes, and notes on
 * confidential issues, go to `confidential_note_events` only. System notes send nothing, as in GitLab.
 */
import type { EventBus } from '@forgekit/kernel';
import type { Project, ProjectService, User } from '@forgekit/plugin-core/contracts';
import type { IssuesService } from '@forgekit/plugin-issues/contracts';
import type { MergeRequestsService } from '@forgekit/plugin-merge-requests/contracts';
import { noteEvents, type Note, type NoteableType } from '@forgekit/plugin-notes/contracts';
import type { HookRequest } from '../contracts.js';
import { hookUser, issueAttributes, projectBlocks, time } from './hook-attributes.js';
import { describeMergeRequest, type MergeRequestPayloadSources } from './merge-request-payload.js';

export interface NoteHookDeps extends MergeRequestPayloadSources {
  events: EventBus;
  projects: ProjectService;
  issues: IssuesService | undefined;
  mergeRequests: MergeRequestsService | undefined;
  publish(request: HookRequest): Promise<void>;
}

interface NoteEvent {
  note: Note;
  noteableType: NoteableType;
  noteableId: number;
  projectId: number | null;
  userId: number;
}

/** What describing a noteable reads. */
export type NoteableSources = Pick<NoteHookDeps, 'issues' | 'mergeRequests' | 'users' | 'repositories' | 'externalUrl'>;

export type NoteTarget = NonNullable<Awaited<ReturnType<typeof noteable>>>;

/** The noteable's block of the payload (`issue` or `merge_request`), its path segment and whether it is confidential. */
export async function noteable(deps: NoteableSources, type: NoteableType, id: number, project: Project) {
  const webUrl = projectBlocks(project, deps.externalUrl).project.web_url;
  if (type === 'Issue') {
    const [issue] = (await deps.issues?.byIds([id])) ?? [];
    return issue && { key: 'issue', segment: 'issues', confidential: issue.confidential, attributes: issueAttributes(issue, webUrl) };
  }
  if (type === 'MergeRequest') {
    const [mr] = (await deps.mergeRequests?.byIds([id])) ?? [];
    return mr && { key: 'merge_request', segment: 'merge_requests', confidential: false, attributes: await describeMergeRequest(deps, mr, project) };
  }
  return undefined;
}

/** GitLab's `object_kind: note` payload, for events and for the test endpoint. */
export function notePayload(note: Note, project: Project, target: NoteTarget, user: User | undefined, externalUrl: string, action: string) {
  const blocks = projectBlocks(project, externalUrl);
  const confidential = note.internal || target.confidential;
  return {
    object_kind: 'note',
    event_type: confidential ? 'confidential_note' : 'note',
    user: hookUser(user),
    project_id: project.id,
    project: blocks.project,
    object_attributes: {
      id: note.id,
      note: note.body,
      description: note.body,
      noteable_type: note.noteableType,
      noteable_id: note.noteableId,
      author_id: note.authorId,
      project_id: project.id,
      system: note.system,
      internal: note.internal,
      confidential: note.internal,
      type: note.type,
      discussion_id: note.discussionId,
      line_code: note.lineCode,
      commit_id: note.commitId,
      attachment: null,
      st_diff: null,
      position: null,
      original_position: null,
      change_position: null,
      resolved_at: time(note.resolvedAt),
      resolved_by_id: note.resolvedById,
      resolved_by_push: null,
      updated_by_id: null,
      created_at: time(note.createdAt),
      updated_at: time(note.updatedAt),
      url: `${blocks.project.web_url}/-/${target.segment}/${note.noteableIid}#note_${note.id}`,
      action,
    },
    repository: blocks.repository,
    [target.key]: target.attributes,
  };
}

export function listenToNotes(deps: NoteHookDeps) {
  const hook =
    (action: string) =>
    async ({ note, noteableType, noteableId, projectId, userId }: NoteEvent) => {
      if (note.system || projectId === null) return;
      const project = await deps.projects.findById(projectId);
      const target = project && (await noteable(deps, noteableType, noteableId, project));
      if (!project || !target) return;
      const confidential = note.internal || target.confidential;
      await deps.publish({
        trigger: confidential ? 'confidential_note_events' : 'note_events',
        projectId,
        groupId: null,
        payload: notePayload(note, project, target, await deps.users.findById(userId), deps.externalUrl, action),
      });
    };
  deps.events.on(noteEvents.created, hook('create'));
  deps.events.on(noteEvents.updated, hook('update'));
}

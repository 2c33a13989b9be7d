/** Awards on issues and merge requests as GitLab's emoji hooks (`award`, `revoke`). */
import type { Project, User } from '@forgekit/plugin-core/contracts';
import { noteEvents, type NoteableType } from '@forgekit/plugin-notes/contracts';
import { hookUser, projectBlocks } from './hook-attributes.js';
import { noteable, type NoteHookDeps, type NoteTarget } from './note-hooks.js';

interface AwardEvent {
  awardId: number;
  name: string;
  awardableType: NoteableType | 'Note';
  awardableId: number;
  projectId: number | null;
  userId: number;
}

export interface HookAward {
  id: number;
  name: string;
  userId: number;
  awardableType: string;
  awardableId: number;
  /** The awarded object's URL. */
  url: string;
  createdAt: string;
}

/** GitLab's `object_kind: emoji` payload, for events and for the test endpoint; `extra` is the awarded object's block. */
export function awardPayload(
  award: HookAward,
  project: Project,
  user: User | undefined,
  externalUrl: string,
  action: 'award' | 'revoke',
  extra: Record<string, unknown>,
) {
  return {
    object_kind: 'emoji',
    event_type: action,
    user: hookUser(user),
    project_id: project.id,
    project: projectBlocks(project, externalUrl).project,
    object_attributes: {
      id: award.id,
      name: award.name,
      user_id: award.userId,
      awardable_type: award.awardableType,
      awardable_id: award.awardableId,
      created_at: award.createdAt,
      updated_at: award.createdAt,
      awarded_on_url: award.url,
    },
    ...extra,
  };
}

export function listenToAwards(deps: NoteHookDeps) {
  const hook = (action: 'award' | 'revoke') => async (award: AwardEvent) => {
    // Awards on notes would need the note, which their event does not carry.
    if (award.awardableType === 'Note' || award.projectId === null) return;
    const project = await deps.projects.findById(award.projectId);
    const target: NoteTarget | undefined = project ? await noteable(deps, award.awardableType, award.awardableId, project) : undefined;
    if (!project || !target) return;
    await deps.publish({
      trigger: 'emoji_events',
      projectId: project.id,
      groupId: null,
      payload: awardPayload(
        {
          id: award.awardId,
          name: award.name,
          userId: award.userId,
          awardableType: award.awardableType,
          awardableId: award.awardableId,
          url: String(target.attributes.url),
          // The event carries no timestamps: the award changes now.
          createdAt: new Date().toISOString(),
        },
        project,
        await deps.users.findById(award.userId),
        deps.externalUrl,
        action,
        { [target.key]: target.attributes },
      ),
    });
  };
  deps.events.on(noteEvents.awarded, hook('award'));
  deps.events.on(noteEvents.revoked, hook('revoke'));
}

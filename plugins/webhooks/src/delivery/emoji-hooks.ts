/** Awards on issues and merge requests as GitLab's emoji hooks (`award`, `revoke`). */
import { noteEvents, type NoteableType } from '@forgekit/plugin-notes/contracts';
import { hookUser, projectBlocks } from './hook-attributes.js';
import { noteable, type NoteHookDeps } from './note-hooks.js';

interface AwardEvent {
  awardId: number;
  name: string;
  awardableType: NoteableType | 'Note';
  awardableId: number;
  projectId: number | null;
  userId: number;
}

export function listenToAwards(deps: NoteHookDeps) {
  const hook = (action: 'award' | 'revoke') => async (award: AwardEvent) => {
    // Awards on notes would need the note, which their event does not carry.
    if (award.awardableType === 'Note' || award.projectId === null) return;
    const project = await deps.projects.findById(award.projectId);
    const target = project && (await noteable(deps, award.awardableType, award.awardableId, project));
    if (!project || !target) return;
    // The event carries no timestamps: the award changes now.
    const now = new Date().toISOString();
    await deps.publish({
      trigger: 'emoji_events',
      projectId: project.id,
      groupId: null,
      payload: {
        object_kind: 'emoji',
        event_type: action,
        user: hookUser(await deps.users.findById(award.userId)),
        project_id: project.id,
        project: projectBlocks(project, deps.externalUrl).project,
        object_attributes: {
          id: award.awardId,
          name: award.name,
          user_id: award.userId,
          awardable_type: award.awardableType,
          awardable_id: award.awardableId,
          created_at: now,
          updated_at: now,
          awarded_on_url: target.attributes.url,
        },
        [target.key]: target.attributes,
      },
    });
  };
  deps.events.on(noteEvents.awarded, hook('award'));
  deps.events.on(noteEvents.revoked, hook('revoke'));
}

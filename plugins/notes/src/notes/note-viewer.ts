/** Who reads a noteable's notes, and what they may do there. */
import type { Principal } from '@forgekit/kernel';
import { AccessLevel, type AccessService, type ProjectAccess } from '@forgekit/plugin-core/contracts';
import type { FoundNoteable, NoteableType } from '../contracts.js';
import type { NoteRow } from '../entities/note.js';

export interface NoteViewer {
  user: Principal;
  /** Reporter and up see and write internal notes. */
  canSeeInternal: boolean;
  /** Administrators and owners may set `created_at`. */
  canSetCreatedAt: boolean;
  /** Developers and up resolve threads. */
  canResolve: boolean;
  /** Members (and administrators) may comment on a locked discussion. */
  isMember: boolean;
}

export interface NoteableInScope {
  noteableType: NoteableType;
  noteable: FoundNoteable;
  viewer: NoteViewer;
}

/** `lookedUp`: the caller's access to the route's project, read earlier in the request; used when it is the noteable's. */
export async function viewerOf(access: AccessService, user: Principal, noteable: FoundNoteable, lookedUp?: ProjectAccess | null): Promise<NoteViewer> {
  const { level } = lookedUp?.canRead && lookedUp.project.id === noteable.projectId ? lookedUp : await access.requireProject(user, String(noteable.projectId));
  return {
    user,
    canSeeInternal: level >= AccessLevel.REPORTER,
    canSetCreatedAt: user.isAdmin || level >= AccessLevel.OWNER,
    canResolve: level >= AccessLevel.DEVELOPER,
    isMember: level >= AccessLevel.GUEST,
  };
}

/** GitLab's `admin_note`: the author, or an administrator. */
export const mayAdminNote = (viewer: NoteViewer, note: NoteRow) => viewer.user.isAdmin || note.authorId === viewer.user.id;

export const mayRead = (viewer: NoteViewer, note: NoteRow) => !note.internal || viewer.canSeeInternal;

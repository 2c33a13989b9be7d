/** The noteable a route names, found for the caller, with what the caller may do with its notes. */
import type { Principal } from '@forgekit/kernel';
import type { AccessService } from '@forgekit/plugin-core/contracts';
import type { NoteService } from './note-service.js';
import { viewerOf, type NoteableInScope } from './note-viewer.js';

/** Each noteable kind's route segment and the name its placeholder has on every route of that kind. */
export const NOTEABLE_SEGMENTS = [
  { segment: 'issues', param: 'issue_iid' },
  { segment: 'merge_requests', param: 'merge_request_iid' },
  { segment: 'snippets', param: 'snippet_id' },
  { segment: 'wiki_pages', param: 'wiki_page_meta_id' },
] as const;

/** The kinds that take award emoji (GitLab's awardables). */
export const AWARDABLE_SEGMENTS = NOTEABLE_SEGMENTS.filter(({ segment }) => segment !== 'wiki_pages');

export type NoteableSegment = (typeof NOTEABLE_SEGMENTS)[number];

export interface ScopeRequest {
  user: Principal;
  params: Readonly<Record<string, string>>;
}

export function noteableScopes(service: NoteService, access: AccessService) {
  return async (ctx: ScopeRequest, { segment, param }: NoteableSegment): Promise<NoteableInScope> => {
    const { noteableType, resolver } = service.resolverFor(segment);
    // Read once for the request: the resolver's own check of the project takes this answer.
    const project = await access.lookUpForRequest(ctx.user, ctx.params.id!);
    const noteable = await resolver(ctx.user, ctx.params.id!, ctx.params[param]!);
    return { noteableType, noteable, viewer: await viewerOf(access, ctx.user, noteable, project) };
  };
}

export type NoteableScopes = ReturnType<typeof noteableScopes>;

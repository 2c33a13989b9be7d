import type { RequestContext } from '@forgekit/kernel';
import type { HookOwnerKind } from '../entities/web-hook.js';
import type { HookOwner } from './hook-store.js';

/** Where a set of hook routes is mounted: `/groups/:id/hooks` or `/projects/:id/hooks`. */
export interface HookMount {
  kind: HookOwnerKind;
  path: string;
  /** The project or group whose hooks the caller administers (404 unseen, 403 otherwise). */
  owner(ctx: RequestContext): Promise<HookOwner>;
  /** The projects a test delivery may take its data from, first choice first. */
  projectsForTest(ctx: RequestContext, owner: HookOwner): Promise<number[]>;
}

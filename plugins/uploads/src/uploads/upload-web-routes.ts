/**
 * The web paths an upload's Markdown link and `full_path` point at, outside `/api/v4`, so a
 * browser opening the link gets the file: `/-/project/:id/uploads/:secret/:filename`,
 * `/-/group/:id/uploads/:secret/:filename` and `/<project full path>/uploads/:secret/:filename`.
 * The owner's read rules apply (a token in `private_token` or a header works as in the API);
 * images, video and audio are shown inline, everything else is a download.
 */
import { contentDisposition, defineRoute, stream, type RequestContext, type Route } from '@forgekit/kernel';
import type { UploadOwnerKind } from '../entities/upload.js';
import { contentTypeOf, webDisposition } from './file-names.js';
import { uploadFileAnswer } from './upload-schemas.js';
import type { UploadService } from './upload-service.js';
import type { UploadOwner } from './upload-store.js';

/** Namespace levels a project's full path may have in these routes, as for git over HTTP. */
export const MAX_NAMESPACE_DEPTH = 20;

export interface WebUploadOwners {
  /** A project by id or full path, or a group by id, that the caller can see (404 otherwise). */
  find(ctx: RequestContext, kind: UploadOwnerKind, idOrPath: string): Promise<UploadOwner>;
}

export function uploadWebRoutes(service: UploadService, owners: WebUploadOwners): Route[] {
  async function serve(ctx: RequestContext, owner: UploadOwner) {
    const found = await service.findBySecret(owner, ctx.params.secret!, ctx.params.filename!);
    const { stream: body, size, upload } = await service.open(found);
    return stream(200, body, contentTypeOf(upload.filename), {
      'Content-Length': String(size),
      'Content-Disposition': contentDisposition(webDisposition(upload.filename), upload.filename),
    });
  }

  const routes: Route[] = [];
  for (const kind of ['project', 'group'] as const) {
    routes.push(
      defineRoute({
        method: 'GET',
        path: `/-/${kind}/:id/uploads/:secret/:filename`,
        raw: true,
        auth: 'optional',
        response: uploadFileAnswer,
        handler: async (ctx) => serve(ctx, await owners.find(ctx, kind, ctx.params.id!)),
      }),
    );
  }
  for (let depth = 1; depth <= MAX_NAMESPACE_DEPTH; depth++) {
    // Named by position, as git over HTTP names them, so routes of every depth share one param node per level.
    const segments = Array.from({ length: depth + 1 }, (_, index) => `s${index}`);
    const path: string = `${segments.map((name) => `/:${name}`).join('')}/uploads/:secret/:filename`;
    routes.push(
      defineRoute({
        method: 'GET',
        path,
        raw: true,
        auth: 'optional',
        response: uploadFileAnswer,
        async handler(ctx) {
          const fullPath = segments.map((name) => ctx.params[name]).join('/');
          return serve(ctx, await owners.find(ctx, 'project', fullPath));
        },
      }),
    );
  }
  return routes;
}

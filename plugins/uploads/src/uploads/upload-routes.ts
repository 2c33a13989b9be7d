/**
 * The Markdown upload endpoints, mounted once per owner kind (`/projects/:id/uploads`,
 * `/groups/:id/uploads`). As in GitLab, params are validated before the owner is looked up
 * (the lookup is in the endpoint, not in a `before` block): anyone who sees the owner uploads
 * and downloads by secret, Maintainers list, download by id and delete.
 */
import {
  contentDisposition,
  created,
  defineRoute,
  f,
  frameworkError,
  noContent,
  page,
  params,
  stream,
  totalFor,
  type RequestContext,
  type Route,
} from '@forgekit/kernel';
import { AccessLevel, ARCHIVED_PROJECT_GUARD } from '@forgekit/plugin-core/contracts';
import type { UploadOwnerKind } from '../entities/upload.js';
import { contentTypeOf } from './file-names.js';
import { presentCreated, presentListed, type Uploader } from './upload-presenter.js';
import { uploadCreatedSchema, uploadFileAnswer, uploadListedSchema } from './upload-schemas.js';
import type { UploadService } from './upload-service.js';
import type { UploadOwner } from './upload-store.js';

export interface UploadMount {
  kind: UploadOwnerKind;
  /** The collection path, e.g. `/projects/:id/uploads`. */
  path: string;
  /** The owner the caller can see (404 otherwise), at `minLevel` or above (403 otherwise). */
  owner(ctx: RequestContext, minLevel: number): Promise<UploadOwner>;
  /** Whether files may be uploaded here (GitLab has no group `POST`). */
  takesUploads: boolean;
}

export interface UploadRouteDeps {
  service: UploadService;
  /** The users who uploaded files, as `uploaded_by` shows them. */
  uploaders(ids: readonly number[]): Promise<Map<number, NonNullable<Uploader>>>;
}

/** GitLab's `file_path` validator: no `..` segment and no absolute path. */
const isValidFilePath = (name: string) => !name.startsWith('/') && !name.split(/[\\/]/).includes('..');

function checkedFilename(ctx: RequestContext): string {
  const name = ctx.params.filename!;
  if (!isValidFilePath(name)) throw frameworkError(400, 'filename should be a valid file path');
  return name;
}

/** The file's bytes as an attachment, GitLab's `present_carrierwave_file!`. */
async function download(service: UploadService, found: Parameters<UploadService['open']>[0]) {
  const { stream: body, size, upload } = await service.open(found);
  return stream(200, body, contentTypeOf(upload.filename), {
    'Content-Length': String(size),
    'Content-Disposition': contentDisposition('attachment', upload.filename),
  });
}

export function uploadRoutes({ service, uploaders }: UploadRouteDeps, mount: UploadMount): Route[] {
  const { path, kind } = mount;
  // Removing an upload is allowed on an archived project, as GitLab's project policy keeps `destroy_upload`.
  const exemptFrom = kind === 'project' ? [ARCHIVED_PROJECT_GUARD] : [];
  // `/:secret/:filename` in GitLab; the router needs one name per position, so the secret
  // sits under the id's name (it is never read as a number there).
  const secretPath = `${path}/:upload_id/:filename`;
  const routes: Route[] = [];
  if (mount.takesUploads) {
    routes.push(
      defineRoute({
        method: 'POST',
        path,
        uploads: true,
        input: params({ file: f.file() }),
        response: { schema: uploadCreatedSchema },
        async handler(ctx, { file }) {
          const owner = await mount.owner(ctx, 0);
          return created(presentCreated(await service.create(owner, file, ctx.user.id)));
        },
      }),
    );
  }
  routes.push(
    defineRoute({
      method: 'GET',
      path,
      auth: 'optional',
      paginated: true,
      response: { schema: uploadListedSchema },
      async handler(ctx) {
        const owner = await mount.owner(ctx, AccessLevel.MAINTAINER);
        const { perPage, offset } = ctx.page;
        const uploads = await service.list(owner, perPage, offset);
        const uploaderIds = uploads.map((upload) => upload.uploadedById ?? null);
        const users = await uploaders([...new Set(uploaderIds.filter((id) => id !== null))]);
        return page(
          uploads.map((upload, index) => presentListed(upload, users.get(uploaderIds[index] ?? -1) ?? null)),
          await totalFor(ctx.page, uploads.length, () => service.count(owner)),
        );
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${path}/:upload_id`,
      auth: 'optional',
      input: params({ upload_id: f.id() }),
      response: uploadFileAnswer,
      async handler(ctx, { upload_id }) {
        // Maintainers only: ids can be enumerated without knowing any secret.
        const owner = await mount.owner(ctx, AccessLevel.MAINTAINER);
        return download(service, await service.findById(owner, upload_id));
      },
    }),
    defineRoute({
      method: 'GET',
      path: secretPath,
      auth: 'optional',
      // A file name that leaves its folder is refused with 400, although the route declares no input.
      response: { ...uploadFileAnswer, errors: [400] },
      async handler(ctx) {
        const filename = checkedFilename(ctx);
        const owner = await mount.owner(ctx, 0);
        return download(service, await service.findBySecret(owner, ctx.params.upload_id!, filename));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: `${path}/:upload_id`,
      input: params({ upload_id: f.id() }),
      exemptFrom,
      response: { status: 204 },
      async handler(ctx, { upload_id }) {
        const owner = await mount.owner(ctx, AccessLevel.MAINTAINER);
        await service.remove(await service.findById(owner, upload_id));
        return noContent();
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: secretPath,
      exemptFrom,
      response: { status: 204, errors: [400] },
      async handler(ctx) {
        const filename = checkedFilename(ctx);
        const owner = await mount.owner(ctx, AccessLevel.MAINTAINER);
        await service.remove(await service.findBySecret(owner, ctx.params.upload_id!, filename));
        return noContent();
      },
    }),
  );
  return routes;
}

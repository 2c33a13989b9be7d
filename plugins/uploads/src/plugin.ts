import { kernelServices, definePlugin } from '@forgekit/kernel';
import { coreAccessRef, coreEvents, coreUsersRef } from '@forgekit/plugin-core/contracts';
import { uploadsServiceRef } from './contracts.js';
import { UploadEntity } from './entities/upload.js';
import { init } from './migrations/202611270900-init.js';
import { groupIdOf, projectIdOf, userSafeOf } from './shared/core-fields.js';
import { presentCreated } from './uploads/upload-presenter.js';
import { uploadRoutes } from './uploads/upload-routes.js';
import { createUploadService } from './uploads/upload-service.js';
import { createUploadStore } from './uploads/upload-store.js';
import { uploadWebRoutes } from './uploads/upload-web-routes.js';

/**
 * Markdown uploads of projects and groups: files arrive streamed to disk within the
 * `max_attachment_size` setting (413 past it, enforced by the kernel while the body
 * arrives), are kept in the kernel's file storage, and are served back as streams.
 */
export const uploadsPlugin = definePlugin({
  id: 'uploads',
  compatibility: '^0.1.0',
  entities: [UploadEntity],
  migrations: [init],
  requires: [coreAccessRef, coreUsersRef],
  provides: [uploadsServiceRef],
  register(ctx) {
    const database = ctx.resolve(kernelServices.database);
    const access = ctx.resolve(coreAccessRef);
    const users = ctx.resolve(coreUsersRef);
    const service = createUploadService(createUploadStore(database), ctx.resolve(kernelServices.files));

    const uploaders = async (ids: readonly number[]) => {
      const found = await Promise.all(ids.map((id) => users.findById(id)));
      return new Map(found.filter((user) => user !== undefined && user !== null).map((user) => [user.id, userSafeOf(user)]));
    };
    const deps = { service, uploaders };
    ctx.routes(
      ...uploadRoutes(deps, {
        kind: 'project',
        path: '/projects/:id/uploads',
        takesUploads: true,
        owner: async (req, minLevel) => ({ kind: 'project', id: projectIdOf(await access.requireProject(req.user, req.params.id!, minLevel)) }),
      }),
      ...uploadRoutes(deps, {
        kind: 'group',
        path: '/groups/:id/uploads',
        takesUploads: false,
        owner: async (req, minLevel) => ({ kind: 'group', id: groupIdOf(await access.requireGroup(req.user, req.params.id!, minLevel)) }),
      }),
      ...uploadWebRoutes(service, {
        find: async (req, kind, idOrPath) =>
          kind === 'project'
            ? { kind, id: projectIdOf(await access.requireProject(req.user, idOrPath)) }
            : { kind, id: groupIdOf(await access.requireGroup(req.user, idOrPath)) },
      }),
    );

    ctx.provide(uploadsServiceRef, {
      async create(owner, file, userId) {
        const upload = await service.create(owner, file, userId);
        const { full_path: fullPath, ...shown } = presentCreated(upload);
        return { ...shown, fullPath, size: upload.size };
      },
    });

    ctx.events.on(coreEvents.projectDeleted, ({ projectId }) => service.removeAllOf({ kind: 'project', id: projectId }));
    ctx.events.on(coreEvents.groupDeleted, ({ groupId }) => service.removeAllOf({ kind: 'group', id: groupId }));
    ctx.events.on(coreEvents.userDeleted, async ({ userId }) => {
      await service.forgetUploader(userId);
    });
  },
});

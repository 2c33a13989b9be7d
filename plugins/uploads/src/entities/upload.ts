import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

export type UploadOwnerKind = 'project' | 'group';

/**
 * A file uploaded for Markdown (an issue's image, say), kept in the kernel's file storage under
 * `uploads/<owner_type>/<owner_id>/<secret>/<filename>`.
 */
export const UploadEntity = defineEntity({
  name: 'Upload',
  tableName: 'uploads',
  // Lookups by secret and name; a secret is random, so one owner never holds it twice.
  uniques: [{ properties: ['ownerType', 'ownerId', 'secret', 'filename'] }],
  // The list: an owner's uploads, newest first.
  indexes: [{ properties: ['ownerType', 'ownerId', 'createdAt'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    ownerType: p.string().$type<UploadOwnerKind>().length(16),
    ownerId: p.integer(),
    /** 32 lowercase hex characters. */
    secret: p.string().length(32),
    /** The sanitised name, at most 255 bytes. */
    filename: p.string().length(255),
    size: p.bigint('number'),
    /** Null once the user who uploaded it is deleted. */
    uploadedById: p.integer().nullable(),
    createdAt: p.datetime(),
  }),
});

export type UploadRow = InferEntity<typeof UploadEntity>;

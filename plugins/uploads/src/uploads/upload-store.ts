/** Upload records in the database, by property: the files themselves live in the kernel's file storage. */
import type { Database } from '@forgekit/kernel';
import { UploadEntity, type UploadOwnerKind, type UploadRow } from '../entities/upload.js';

export interface UploadOwner {
  kind: UploadOwnerKind;
  id: number;
}

export type NewUpload = Omit<UploadRow, 'id'>;

export function createUploadStore(database: Database) {
  // Reads of one request each: compiled once.
  const page = database.prepareRows((p) =>
    database.from(UploadEntity).where({ ownerType: p.kind, ownerId: p.id }).orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(p.limit).offset(p.offset),
  );
  const byId = database.prepareRows((p) => database.from(UploadEntity).where({ ownerType: p.kind, ownerId: p.id, id: p.uploadId }));
  const bySecret = database.prepareRows((p) => database.from(UploadEntity).where({ ownerType: p.kind, ownerId: p.id, secret: p.secret, filename: p.filename }));

  return {
    /** A page of the owner's uploads, newest first. */
    list: (owner: UploadOwner, limit: number, offset: number): Promise<UploadRow[]> => page.all({ kind: owner.kind, id: owner.id, limit, offset }),
    count: (owner: UploadOwner) => database.count(database.from(UploadEntity).where({ ownerType: owner.kind, ownerId: owner.id })),
    findById: (owner: UploadOwner, uploadId: number): Promise<UploadRow | undefined> => byId.first({ kind: owner.kind, id: owner.id, uploadId }),
    findBySecret: (owner: UploadOwner, secret: string, filename: string): Promise<UploadRow | undefined> =>
      bySecret.first({ kind: owner.kind, id: owner.id, secret, filename }),
    async insert(row: NewUpload): Promise<UploadRow> {
      return { id: await database.insert(UploadEntity, row), ...row };
    },
    /** Removes one record; answers whether it was there. */
    remove: async (id: number) => (await database.delete(UploadEntity, { id })) > 0,
    removeAllOf: (owner: UploadOwner) => database.delete(UploadEntity, { ownerType: owner.kind, ownerId: owner.id }),
    /** A deleted user's uploads stay, with no uploader. */
    forgetUploader: (userId: number) => database.update(UploadEntity, { uploadedById: userId }, { uploadedById: null }),
  };
}

export type UploadStore = ReturnType<typeof createUploadStore>;

/**
 * Markdown uploads: a file moves from its request's temporary file into the kernel's file
 * storage under a random secret, and is served back from there as a stream. No step holds a
 * whole file in memory.
 */
import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { badRequest, notFound, recordNotFound, type FileStorage, type StoredFile } from '@forgekit/kernel';
import type { UploadRow } from '../entities/upload.js';
import { sanitizeFilename } from './file-names.js';
import type { UploadOwner, UploadStore } from './upload-store.js';

/** A file on disk to keep: its path (moved away by `create`) and the name its sender gave it. */
export interface UploadSource {
  path: string;
  filename: string;
}

const DESTROY_REFUSED = "The resource that you are attempting to access does not exist or you don't have permission to perform this action.";

/** 32 lowercase hex characters. */
export const newSecret = () => randomBytes(16).toString('hex');

const folderOf = (owner: UploadOwner) => `uploads/${owner.kind}/${owner.id}`;
const keyOf = (upload: Pick<UploadRow, 'ownerType' | 'ownerId' | 'secret' | 'filename'>) =>
  `${folderOf({ kind: upload.ownerType, id: upload.ownerId })}/${upload.secret}/${upload.filename}`;

export function createUploadService(store: UploadStore, files: FileStorage) {
  return {
    /** Keeps the file for the owner under a new secret and a sanitised name; the source file is moved, not copied. */
    async create(owner: UploadOwner, source: UploadSource, uploadedById: number | null): Promise<UploadRow> {
      const upload = { ownerType: owner.kind, ownerId: owner.id, secret: newSecret(), filename: sanitizeFilename(source.filename) };
      const key = keyOf(upload);
      await files.moveIn(key, source.path);
      try {
        const { size } = await stat(files.path(key));
        return await store.insert({ ...upload, size, uploadedById, createdAt: new Date() });
      } catch (error) {
        await files.delete(key);
        throw error;
      }
    },

    list: (owner: UploadOwner, limit: number, offset: number) => store.list(owner, limit, offset),
    count: (owner: UploadOwner) => store.count(owner),

    /** The owner's upload with this id, else GitLab's record-not-found 404. */
    async findById(owner: UploadOwner, uploadId: number): Promise<UploadRow> {
      const upload = await store.findById(owner, uploadId);
      if (!upload) throw recordNotFound();
      return upload;
    },

    findBySecret: (owner: UploadOwner, secret: string, filename: string) => store.findBySecret(owner, secret, filename),

    /** The stored file, else `404 Not Found`. */
    async open(upload: UploadRow | undefined): Promise<StoredFile & { upload: UploadRow }> {
      const stored = upload ? await files.open(keyOf(upload)) : null;
      if (!upload || !stored) throw notFound();
      return { ...stored, upload };
    },

    /** Removes the record, then the file; a missing upload is GitLab's destroy-service 400. */
    async remove(upload: UploadRow | undefined): Promise<void> {
      if (!upload) throw badRequest(DESTROY_REFUSED);
      if (!(await store.remove(upload.id))) throw badRequest('Upload could not be deleted.');
      await files.delete(keyOf(upload));
    },

    /** Everything an owner uploaded, records and files, when the project or group goes. */
    async removeAllOf(owner: UploadOwner): Promise<void> {
      await store.removeAllOf(owner);
      await files.delete(folderOf(owner));
    },

    forgetUploader: (userId: number) => store.forgetUploader(userId),
  };
}

export type UploadService = ReturnType<typeof createUploadService>;

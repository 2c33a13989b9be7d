/**
 * What other plugins may use of Markdown uploads: the uploads service, to keep a file for a
 * project or a group (a group feature's attachment, say) and link it in Markdown as the
 * upload API does.
 */
import { createServiceRef } from '@forgekit/kernel';

export type UploadOwnerKind = 'project' | 'group';

export interface UploadOwner {
  kind: UploadOwnerKind;
  id: number;
}

/** A kept upload as the create API answers it (`ProjectUpload`, `GroupUpload`). */
export interface MarkdownUpload {
  id: number;
  alt: string;
  /** `/uploads/<secret>/<filename>`, as Markdown in the owner's pages links it. */
  url: string;
  /** `/-/<project|group>/<id>/uploads/<secret>/<filename>`, served to browsers under the owner's read rules. */
  fullPath: string;
  markdown: string;
  size: number;
}

export interface UploadsService {
  /**
   * Keeps the file at `path` (moved, not copied: a request's temporary file, say) for the
   * owner under a new secret and a sanitised `filename`, uploaded by `userId` (null: nobody).
   * The caller has checked that the owner exists and the user may upload.
   */
  create(owner: UploadOwner, file: { path: string; filename: string }, userId: number | null): Promise<MarkdownUpload>;
}

export const uploadsServiceRef = createServiceRef<UploadsService>('uploads.service');

/** GitLab's rules for an uploaded file's name and its Markdown link, for other plugins that keep attachments (wikis). */
export { markdownLink, sanitizeFilename } from './uploads/file-names.js';

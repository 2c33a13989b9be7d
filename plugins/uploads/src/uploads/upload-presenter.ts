/** GitLab's upload entities: `ProjectUpload` (`GroupUpload`) for a new upload, `MarkdownUploadAdmin` in lists. */
import type { UploadRow } from '../entities/upload.js';
import { markdownLink, markdownName, pathSegment } from './file-names.js';

/** The upload as a create answers it; `url` is relative, as Markdown in the owner's pages links it. */
export function presentCreated(upload: UploadRow) {
  const url = `/uploads/${upload.secret}/${upload.filename}`;
  return {
    id: upload.id,
    alt: markdownName(upload.filename),
    url,
    full_path: `/-/${upload.ownerType}/${upload.ownerId}/uploads/${upload.secret}/${pathSegment(upload.filename)}`,
    markdown: markdownLink(upload.filename, url),
  };
}

/** Who uploaded a file, as `UserSafe`; null once that user is gone. */
export type Uploader = { id: number; name: string; username: string } | null;

export function presentListed(upload: UploadRow, uploadedBy: Uploader) {
  return { id: upload.id, size: upload.size, filename: upload.filename, created_at: upload.createdAt, uploaded_by: uploadedBy };
}

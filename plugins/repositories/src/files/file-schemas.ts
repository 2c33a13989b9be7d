/** JSON Schemas of the blob and file answers (`file-routes.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

/** `GET .../blobs/:sha`: a blob's bytes in base64. */
export const blobSchema: JsonSchema = {
  type: 'object',
  properties: {
    size: { type: 'integer' },
    encoding: { const: 'base64' },
    content: { type: 'string' },
    sha: { type: 'string' },
  },
  required: ['size', 'encoding', 'content', 'sha'],
};

/** `GET .../files/:file_path`: a file at a ref, with its bytes in base64 (the same fields its raw answer sends as headers). */
export const fileSchema: JsonSchema = {
  type: 'object',
  properties: {
    file_name: { type: 'string' },
    file_path: { type: 'string' },
    size: { type: 'integer' },
    encoding: { const: 'base64' },
    content_sha256: { type: 'string' },
    ref: { type: 'string' },
    blob_id: { type: 'string' },
    commit_id: { type: 'string' },
    last_commit_id: { type: ['string', 'null'] },
    execute_filemode: { type: 'boolean' },
    content: { type: 'string' },
  },
  required: ['file_name', 'file_path', 'size', 'encoding', 'content_sha256', 'ref', 'blob_id', 'commit_id', 'last_commit_id', 'execute_filemode', 'content'],
};

/** A file created or updated: where the commit went. */
export const fileCommitSchema: JsonSchema = {
  type: 'object',
  properties: { file_path: { type: 'string' }, branch: { type: 'string' } },
  required: ['file_path', 'branch'],
};

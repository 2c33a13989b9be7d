/** JSON Schemas of the upload answers (`upload-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

/** `ProjectUpload` / `GroupUpload`: a new upload. */
export const uploadCreatedSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    alt: { type: 'string' },
    url: { type: 'string' },
    full_path: { type: 'string' },
    markdown: { type: 'string' },
  },
  required: ['id', 'alt', 'url', 'full_path', 'markdown'],
};

/** `MarkdownUploadAdmin`: an upload in a list, with who uploaded it (`UserSafe`, null once gone). */
export const uploadListedSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    size: { type: 'integer' },
    filename: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
    uploaded_by: {
      type: ['object', 'null'],
      properties: { id: { type: 'integer' }, name: { type: 'string' }, username: { type: 'string' } },
      required: ['id', 'name', 'username'],
    },
  },
  required: ['id', 'size', 'filename', 'created_at', 'uploaded_by'],
};

/** A stored file's bytes, under the `Content-Type` its name gives. */
export const uploadFileAnswer = { contentType: 'application/octet-stream' } as const;

/** The parameters of snippet creates and updates, shared by personal and project snippets. */
import { f, params, rules, type ParamsSchema } from '@forgekit/kernel';
import { Visibility } from '@forgekit/plugin-core/contracts';
import { SNIPPET_ACTIONS, type SnippetUpdate } from './snippet-service.js';

export const VISIBILITIES = ['private', 'internal', 'public'] as const;
export type VisibilityWord = (typeof VISIBILITIES)[number];

/** Grape's `given :content do requires :file_name`. */
const fileNameWithContent = (input: Record<string, unknown>) => (input.content !== undefined && input.file_name === undefined ? 'file_name is missing' : null);

export const createFileEntries = {
  files: f.optional(f.array(f.hash({ file_path: f.nonBlankString(), content: f.nonBlankString() }))),
  content: f.optional(f.nonBlankString()),
  file_name: f.optional(f.string()),
};

export const createRules = [fileNameWithContent, rules.mutuallyExclusive('files', 'content'), rules.exactlyOneOf('files', 'content')];

export const updateEntries = {
  title: f.optional(f.nonBlankString()),
  description: f.optional(f.string()),
  visibility: f.optional(f.values(VISIBILITIES)),
  files: f.optional(
    f.array(
      f.hash({
        action: f.values(SNIPPET_ACTIONS),
        content: f.optional(f.string()),
        file_path: f.optional(f.string()),
        previous_path: f.optional(f.string()),
      }),
    ),
  ),
  content: f.optional(f.nonBlankString()),
  file_name: f.optional(f.string()),
};

export const updateRules = [
  rules.mutuallyExclusive('files', 'content'),
  rules.mutuallyExclusive('files', 'file_name'),
  rules.atLeastOneOf('content', 'description', 'files', 'file_name', 'title', 'visibility'),
];

/** The files of a create: the `files` array, or the deprecated `content` with `file_name`. */
export function filesOf(input: { files?: { file_path: string; content: string }[] | null; content?: string | null; file_name?: string | null }) {
  if (input.files) return input.files.map((file) => ({ filePath: file.file_path, content: file.content }));
  return [{ filePath: input.file_name ?? '', content: input.content ?? '' }];
}

const updateParams = params(updateEntries);
type UpdateInput = typeof updateParams extends ParamsSchema<infer O> ? O : never;

export function updateOf(input: UpdateInput): SnippetUpdate {
  return {
    title: input.title ?? undefined,
    description: input.description,
    visibilityLevel: input.visibility ? Visibility[input.visibility] : undefined,
    files:
      input.files?.map((file) => ({ action: file.action, filePath: file.file_path, previousPath: file.previous_path, content: file.content })) ?? undefined,
    content: input.content,
    fileName: input.file_name,
  };
}

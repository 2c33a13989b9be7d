export { fencedCodeBlocks, findReferences, type RenderOptions, renderMarkdown, sanitizeRendered } from './render.js';
export type { Reference, ReferenceKind, ReferenceLink } from './references.js';
export { taskCompletion } from './task-list.js';

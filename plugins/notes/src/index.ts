import { notesPlugin } from './plugin.js';

export * from './contracts.js';
export { notesPlugin } from './plugin.js';
export default notesPlugin;

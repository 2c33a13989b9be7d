/** Finds quick actions in a note body: lines `/name args` outside code blocks, for the names a noteable understands. */
import type { QuickAction } from '../contracts.js';

const COMMAND_LINE = /^\/([a-z_]+)(?:[ \t]+(.*))?$/;
const FENCE = /^\s*(```|~~~)/;

export interface ParsedBody {
  /** The body without its quick-action lines. */
  text: string;
  actions: QuickAction[];
}

export function parseQuickActions(body: string, names: readonly string[]): ParsedBody {
  if (names.length === 0 || !body.includes('/')) return { text: body, actions: [] };
  const actions: QuickAction[] = [];
  const kept: string[] = [];
  let inFence = false;
  for (const line of body.split('\n')) {
    if (FENCE.test(line)) inFence = !inFence;
    const match = inFence ? null : COMMAND_LINE.exec(line.trim());
    if (match && names.includes(match[1]!)) actions.push({ name: match[1]!, args: (match[2] ?? '').trim() });
    else kept.push(line);
  }
  return { text: actions.length > 0 ? kept.join('\n').trim() : body, actions };
}

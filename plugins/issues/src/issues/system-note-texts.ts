/** GitLab's system note texts for issue changes (app/services/system_notes/*). */

/** Marks what changed between two titles with GitLab's inline markers `{-removed-}` and `{+added+}` (common prefix and suffix kept). */
export function titleChangeNote(previous: string, current: string): string {
  const before = [...previous];
  const after = [...current];
  let prefix = 0;
  while (prefix < before.length && prefix < after.length && before[prefix] === after[prefix]) prefix++;
  let suffix = 0;
  while (suffix < before.length - prefix && suffix < after.length - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++;
  const mark = (chars: string[], open: string, close: string) => {
    const middle = chars.slice(prefix, chars.length - suffix).join('');
    const head = chars.slice(0, prefix).join('');
    const tail = chars.slice(chars.length - suffix).join('');
    return middle === '' ? chars.join('') : `${head}${open}${middle}${close}${tail}`;
  };
  return `changed title from **${mark(before, '{-', '-}')}** to **${mark(after, '{+', '+}')}**`;
}

export const DESCRIPTION_CHANGED = 'changed the description';

/** `added ~1 ~2 labels`, `removed ~3 label`, `added ~1 and removed ~2 labels`. */
export function labelsChangeNote(addedIds: readonly number[], removedIds: readonly number[]): string | null {
  const count = addedIds.length + removedIds.length;
  if (count === 0) return null;
  const parts: string[] = [];
  if (addedIds.length > 0) parts.push(`added ${addedIds.map((id) => `~${id}`).join(' ')}`);
  if (removedIds.length > 0) parts.push(`removed ${removedIds.map((id) => `~${id}`).join(' ')}`);
  return `${parts.join(' and ')} ${count === 1 ? 'label' : 'labels'}`;
}

/** A milestone as GitLab references it from an issue of its project: `%iid`, or `%"title"` for group milestones. */
export function milestoneReference(milestone: { iid: number; title: string; groupId: number | null }): string {
  return milestone.groupId !== null && !milestone.title.includes('"') ? `%"${milestone.title}"` : `%${milestone.iid}`;
}

export function milestoneChangeNote(milestone: { iid: number; title: string; groupId: number | null } | null): string {
  return milestone ? `changed milestone to ${milestoneReference(milestone)}` : 'removed milestone';
}

/** Rails' `to_sentence`: `a`, `a and b`, `a, b and c`. */
const toSentence = (items: readonly string[]) => (items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);

/** `assigned to @a and unassigned @b`. */
export function assigneesChangeNote(added: readonly string[], removed: readonly string[]): string | null {
  const parts: string[] = [];
  if (added.length > 0) parts.push(`assigned to ${toSentence(added.map((name) => `@${name}`))}`);
  if (removed.length > 0) parts.push(`unassigned ${toSentence(removed.map((name) => `@${name}`))}`);
  return parts.length > 0 ? parts.join(' and ') : null;
}

export const stateChangeNote = (state: 'closed' | 'reopened') => state;

export const confidentialityNote = (confidential: boolean) => (confidential ? 'made the issue confidential' : 'made the issue visible to everyone');

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `changed due date to November 24, 2026` or `removed due date`. */
export function dueDateNote(dueDate: string | null): string {
  if (!dueDate) return 'removed due date';
  const [year, month, day] = dueDate.split('-').map(Number);
  return `changed due date to ${MONTHS[(month ?? 1) - 1]} ${day}, ${year}`;
}

export const discussionLockNote = (locked: boolean) => (locked ? 'locked the discussion in this issue' : 'unlocked the discussion in this issue');

/** `changed iteration to *iteration:12` or `removed iteration *iteration:12`. */
export const iterationNote = (current: number | null, previous: number | null) =>
  current !== null ? `changed iteration to *iteration:${current}` : `removed iteration *iteration:${previous}`;

import { describe, expect, it } from 'vitest';
import { assigneesChangeNote, dueDateNote, labelsChangeNote, milestoneChangeNote, titleChangeNote } from './system-note-texts.js';

describe('system note texts', () => {
  it('marks the changed part of a title', () => {
    expect(titleChangeNote('Fix the bug', 'Fix the big bug')).toBe('changed title from **Fix the bug** to **Fix the b{+ig b+}ug**');
    expect(titleChangeNote('a', 'b')).toBe('changed title from **{-a-}** to **{+b+}**');
    expect(titleChangeNote('same', 'same again')).toBe('changed title from **same** to **same{+ again+}**');
  });

  it('words label changes as GitLab does', () => {
    expect(labelsChangeNote([1], [])).toBe('added ~1 label');
    expect(labelsChangeNote([1, 2], [])).toBe('added ~1 ~2 labels');
    expect(labelsChangeNote([], [3])).toBe('removed ~3 label');
    expect(labelsChangeNote([1], [3])).toBe('added ~1 and removed ~3 labels');
    expect(labelsChangeNote([], [])).toBeNull();
  });

  it('words assignee, milestone and due date changes', () => {
    expect(assigneesChangeNote(['a', 'b', 'c'], [])).toBe('assigned to @a, @b and @c');
    expect(assigneesChangeNote(['a'], ['b'])).toBe('assigned to @a and unassigned @b');
    expect(assigneesChangeNote([], [])).toBeNull();
    expect(milestoneChangeNote({ iid: 4, title: 'v1', groupId: null })).toBe('changed milestone to %4');
    expect(milestoneChangeNote({ iid: 4, title: 'Q1 goals', groupId: 9 })).toBe('changed milestone to %"Q1 goals"');
    expect(milestoneChangeNote(null)).toBe('removed milestone');
    expect(dueDateNote('2026-03-05')).toBe('changed due date to March 5, 2026');
    expect(dueDateNote(null)).toBe('removed due date');
  });
});

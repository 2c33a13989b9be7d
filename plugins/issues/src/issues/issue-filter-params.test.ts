import { describe, expect, it } from 'vitest';
import type { IssueFilter } from './issue-filter.js';
import { filterParams } from '@forgekit/kernel/orm';

/** Parameters as the kernel hands them to a statement's builder: here, each named value itself. */
const asGiven = (values: Record<string, unknown>) => values as Record<string, never>;

describe('an issue list filter as named parameters', () => {
  const filter: IssueFilter = {
    projectIds: [1, 2],
    confidentialVisibility: { all: false, projectIds: [3], userId: 4 },
    state: 'opened',
    assignee: 'none',
    labels: [[3, 4], [5]],
    confidential: false,
    dueDate: { from: '2026-01-01', to: '2026-01-31' },
    not: { authorIds: [7], labels: [[8]] },
  };

  it('gives back the filter when each parameter holds its value', () => {
    const params = filterParams(filter)!;
    expect(params.standIn(asGiven(params.values))).toEqual(filter);
    expect(params.values).toMatchObject({ projectIds: [1, 2], 'confidentialVisibility.userId': 4, state: 'opened', 'dueDate.from': '2026-01-01' });
  });

  it('shares a shape between filters that differ only in values', () => {
    const other: IssueFilter = {
      ...filter,
      projectIds: [9],
      confidentialVisibility: { all: false, projectIds: [1, 2], userId: 8 },
      state: 'closed',
      dueDate: { from: '2025-02-01', to: '2025-02-28' },
    };
    expect(filterParams(other)!.key).toBe(filterParams(filter)!.key);
  });

  it('keeps wildcards, booleans and who sees confidential issues in the shape', () => {
    const keyOf = (changes: Partial<IssueFilter>) => filterParams({ ...filter, ...changes })!.key;
    const base = keyOf({});
    expect(keyOf({ confidentialVisibility: { all: true } })).not.toBe(base);
    expect(keyOf({ assignee: [4] })).not.toBe(base);
    expect(keyOf({ confidential: true })).not.toBe(base);
    expect(keyOf({ dueDate: 'any' })).not.toBe(base);
    expect(keyOf({ state: undefined })).not.toBe(base);
  });

  it('leaves searches, dates, open due date bounds, anonymous callers and project queries to statements built each time', () => {
    expect(filterParams({ ...filter, search: { text: 'x', in: [] } })).toBeUndefined();
    expect(filterParams({ ...filter, updatedAfter: new Date(0) })).toBeUndefined();
    expect(filterParams({ ...filter, dueDate: { from: null, to: '2026-01-01' } })).toBeUndefined();
    expect(filterParams({ ...filter, confidentialVisibility: { all: false, projectIds: [], userId: null } })).toBeUndefined();
    expect(filterParams({ ...filter, projectIds: null })).toBeUndefined();
  });
});

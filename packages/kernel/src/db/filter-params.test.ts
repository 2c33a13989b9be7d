import { describe, expect, it } from 'vitest';
import { filterParams } from './filter-params.js';

/** A list filter of the kind the issue and merge-request lists build. */
interface ListFilter {
  projectIds: number[] | null;
  state?: string;
  assignee?: 'none' | 'any' | number[];
  labels?: number[][] | 'any';
  draft?: boolean;
  not?: { authorIds?: number[]; labels?: number[][] };
  search?: { text: string; in: string[] };
  createdAfter?: Date;
}

/** Parameters as the kernel hands them to a statement's builder: here, each named value itself. */
const asGiven = (values: Record<string, unknown>) => values as Record<string, never>;

describe('a list filter as named parameters', () => {
  const filter: ListFilter = {
    projectIds: [1, 2],
    state: 'opened',
    assignee: 'none',
    labels: [[3, 4], [5]],
    draft: false,
    not: { authorIds: [7], labels: [[8]] },
  };

  it('gives back the filter when each parameter holds its value', () => {
    const params = filterParams(filter)!;
    expect(params.standIn(asGiven(params.values))).toEqual(filter);
    expect(params.values).toEqual({ projectIds: [1, 2], state: 'opened', 'labels.0': [3, 4], 'labels.1': [5], 'not.authorIds': [7], 'not.labels.0': [8] });
  });

  it('shares a shape between filters that differ only in values', () => {
    const other: ListFilter = { ...filter, projectIds: [9], state: 'merged', labels: [[1], [2, 3, 4]], not: { authorIds: [1, 2], labels: [[6]] } };
    expect(filterParams(other)!.key).toBe(filterParams(filter)!.key);
  });

  it('keeps wildcards, booleans and the number of label titles in the shape', () => {
    const keyOf = (changes: Partial<ListFilter>) => filterParams({ ...filter, ...changes })!.key;
    const base = keyOf({});
    expect(keyOf({ assignee: 'any' })).not.toBe(base);
    expect(keyOf({ assignee: [4] })).not.toBe(base);
    expect(keyOf({ draft: true })).not.toBe(base);
    expect(keyOf({ labels: [[3]] })).not.toBe(base);
    expect(keyOf({ labels: 'any' })).not.toBe(base);
    expect(keyOf({ state: undefined })).not.toBe(base);
  });

  it('leaves searches and dates to statements built each time', () => {
    expect(filterParams({ ...filter, search: { text: 'x', in: [] } })).toBeUndefined();
    expect(filterParams({ ...filter, createdAfter: new Date(0) })).toBeUndefined();
  });
});

describe('values a parameter cannot stand for', () => {
  it('leaves nulls and ids given as a query to statements built each time', () => {
    expect(filterParams<ListFilter>({ projectIds: null })).toBeUndefined();
  });
});

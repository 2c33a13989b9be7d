import { describe, expect, it } from 'vitest';
import { mergeLinks } from './merge-links.js';

describe('mergeLinks', () => {
  const links = [
    { id: 1, owner: 'a', target: 9 },
    { id: 2, owner: 'a', target: 5 },
    { id: 3, owner: 'b', target: 5 },
    { id: 4, owner: 'b', target: 6 },
    { id: 5, owner: 'c', target: 6 },
  ];

  it('moves the first link of each owner without one to the survivor and drops the rest', () => {
    expect(
      mergeLinks(
        links,
        (link) => link.target === 9,
        (link) => link.owner,
      ),
    ).toEqual({ moved: [3, 5], dropped: [2, 4] });
  });

  it('takes the order given: reversed, the last link of each owner moves', () => {
    expect(
      mergeLinks(
        [...links].reverse(),
        (link) => link.target === 9,
        (link) => link.owner,
      ),
    ).toEqual({ moved: [5, 4], dropped: [3, 2] });
  });

  it('moves every link when nothing points at the survivor yet', () => {
    expect(
      mergeLinks(
        links,
        () => false,
        (link) => link.id,
      ),
    ).toEqual({ moved: [1, 2, 3, 4, 5], dropped: [] });
  });
});

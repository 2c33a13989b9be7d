/**
 * Merging records into one (a promoted label or milestone): the links that pointed at the
 * merged records (an issue's label, a project's priority, a user's subscription) point at the
 * survivor instead, at most one per owner.
 */
export interface LinkMerge {
  /** Links to re-point at the survivor. */
  moved: number[];
  /** Links to remove: their owner already has one to the survivor. */
  dropped: number[];
}

/**
 * Of each owner's links, in the order given, the first moves to the survivor unless the owner
 * already links to it; the rest are dropped. Links to the survivor itself stay as they are.
 */
export function mergeLinks<L extends { id: number }>(links: readonly L[], toSurvivor: (link: L) => boolean, ownerOf: (link: L) => unknown): LinkMerge {
  const linked = new Set(links.filter(toSurvivor).map(ownerOf));
  const merge: LinkMerge = { moved: [], dropped: [] };
  for (const link of links) {
    if (toSurvivor(link)) continue;
    const owner = ownerOf(link);
    if (linked.has(owner)) merge.dropped.push(link.id);
    else {
      linked.add(owner);
      merge.moved.push(link.id);
    }
  }
  return merge;
}

/** Ids in a traversal path `/1/5/9/`, root first. */
export const traversalIds = (path: string) => path.split('/').filter(Boolean).map(Number);

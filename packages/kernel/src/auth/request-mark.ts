import type { Principal } from './identity.js';

/**
 * The database's change mark (`Database.changeMark`) under which a reading request's
 * credential was found, kept by the request's caller object (each request gets one of its
 * own). A service that keeps what it read under a mark may answer the request from it while
 * the marks are equal: then nothing was committed, by any process, between that read and
 * this request's start. Only GET and HEAD requests carry one, so a request never takes a
 * kept read from before its own writes.
 */
const marks = new WeakMap<Principal, number>();

export function markRequest(caller: Principal, mark: number): void {
  marks.set(caller, mark);
}

/** The caller's request's change mark, or undefined: read afresh. */
export function requestMark(caller: Principal | null | undefined): number | undefined {
  return caller ? marks.get(caller) : undefined;
}

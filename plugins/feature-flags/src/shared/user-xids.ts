/** GitLab's rule for comma-separated external user ids (`userIds`, `user_xids`). */
const MAX_XID_LENGTH = 256;

export const userXidsMessage = (attribute: string) =>
  `${attribute} must be a string of unique comma separated values each ${MAX_XID_LENGTH} characters or less`;

/** Ruby's `split(',')`: trailing empty parts are dropped. */
function rubySplit(text: string): string[] {
  const parts = text.split(',');
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

const validXid = (xid: string) => xid.trim() !== '' && xid.trim() === xid && [...xid].length <= MAX_XID_LENGTH;

export function validUserXids(value: unknown): boolean {
  if (typeof value !== 'string' || /[\n\r\t]|,,/.test(value)) return false;
  const xids = rubySplit(value);
  return new Set(xids).size === xids.length && xids.every(validXid);
}

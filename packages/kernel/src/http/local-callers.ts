/**
 * Whether a caller's address is this machine's: health checks and metrics answer only such
 * callers, as GitLab's monitoring IP allow-list does by default. '' is an in-process request
 * (no socket), which only code inside the process can make.
 */
export function isLocalCaller(ip: string): boolean {
  return ip === '' || ip === '127.0.0.1' || ip === '::1' || ip === '::ffff:127.0.0.1';
}

import { describe, expect, it } from 'vitest';
import { declinedPush, FLUSH, pktLine, readPushRequest } from './pkt-line.js';

const A = 'a'.repeat(40);
const ZERO = '0'.repeat(40);

describe('receive-pack requests and declined answers', () => {
  const body = Buffer.from(`${pktLine(`${A} ${ZERO} refs/heads/main\0report-status side-band-64k agent=git/2\n`)}${pktLine(`${ZERO} ${A} refs/heads/new\n`)}${FLUSH}PACK`);

  it('reads the commands and the capabilities of the first line', () => {
    expect(readPushRequest(body)).toEqual({
      commands: [
        { before: A, after: ZERO, ref: 'refs/heads/main' },
        { before: ZERO, after: A, ref: 'refs/heads/new' },
      ],
      capabilities: ['report-status', 'side-band-64k', 'agent=git/2'],
    });
  });

  it('declines every ref, in side-band packets when asked for', () => {
    const status = `${pktLine('unpack ok\n')}${pktLine('ng refs/heads/main pre-receive hook declined\n')}${pktLine('ng refs/heads/new pre-receive hook declined\n')}${FLUSH}`;
    expect(declinedPush(readPushRequest(body), 'No.').toString()).toBe(`${pktLine('\u0002No.\n')}${pktLine(`\u0001${status}`)}${FLUSH}`);
    const plain = { ...readPushRequest(body), capabilities: ['report-status'] };
    expect(declinedPush(plain, 'No.').toString()).toBe(status);
    expect(declinedPush({ ...plain, capabilities: [] }, 'No.').toString()).toBe('');
  });
});

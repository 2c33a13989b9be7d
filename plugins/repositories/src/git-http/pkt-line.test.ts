import { describe, expect, it } from 'vitest';
import { FLUSH, pktLine, readPushRequest } from './pkt-line.js';

const A = 'a'.repeat(40);
const ZERO = '0'.repeat(40);

describe('receive-pack requests', () => {
  const body = Buffer.from(
    `${pktLine(`${A} ${ZERO} refs/heads/main\0report-status side-band-64k agent=git/2\n`)}${pktLine(`${ZERO} ${A} refs/heads/new\n`)}${FLUSH}PACK`,
  );

  it('reads the commands and the capabilities of the first line', () => {
    expect(readPushRequest(body)).toEqual({
      commands: [
        { before: A, after: ZERO, ref: 'refs/heads/main' },
        { before: ZERO, after: A, ref: 'refs/heads/new' },
      ],
      capabilities: ['report-status', 'side-band-64k', 'agent=git/2'],
    });
  });
});

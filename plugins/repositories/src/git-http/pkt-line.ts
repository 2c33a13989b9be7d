/** git's pkt-line framing: 4 hex digits of length (header included), then the payload; `0000` flushes. */

export function pktLine(text: string): string {
  const length = Buffer.byteLength(text) + 4;
  return length.toString(16).padStart(4, '0') + text;
}

export const FLUSH = '0000';

export interface PushCommand {
  before: string;
  after: string;
  ref: string;
}

export interface PushRequest {
  commands: PushCommand[];
  /** What the client asked for on its first command line (`report-status`, `side-band-64k`, …). */
  capabilities: string[];
}

/** The ref update commands at the start of a receive-pack request (up to the first flush), with the client's capabilities. */
export function readPushRequest(body: Buffer): PushRequest {
  const commands: PushCommand[] = [];
  let capabilities: string[] = [];
  let offset = 0;
  while (offset + 4 <= body.length) {
    const length = Number.parseInt(body.subarray(offset, offset + 4).toString('ascii'), 16);
    if (Number.isNaN(length) || length === 0) break;
    if (length < 4 || offset + length > body.length) break;
    const line = body.subarray(offset + 4, offset + length).toString('utf8');
    offset += length;
    const [command, extras] = line.replace(/\n$/, '').split('\0');
    if (commands.length === 0 && extras !== undefined) capabilities = extras.split(' ').filter(Boolean);
    const match = /^([0-9a-f]{40}) ([0-9a-f]{40}) (.+)$/.exec(command!);
    if (match) commands.push({ before: match[1]!, after: match[2]!, ref: match[3]! });
  }
  return { commands, capabilities };
}

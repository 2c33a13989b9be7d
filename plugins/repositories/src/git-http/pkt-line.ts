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

/**
 * receive-pack's answer when a server-side hook declines a whole push: the message as
 * `remote:` output, every ref reported `pre-receive hook declined`, nothing updated. It
 * is framed in side-band packets when the client asked for them.
 */
export function declinedPush({ commands, capabilities }: PushRequest, message: string): Buffer {
  const status = capabilities.some((capability) => capability === 'report-status' || capability === 'report-status-v2')
    ? [pktLine('unpack ok\n'), ...commands.map((command) => pktLine(`ng ${command.ref} pre-receive hook declined\n`)), FLUSH].join('')
    : '';
  if (!capabilities.includes('side-band-64k') && !capabilities.includes('side-band')) return Buffer.from(status);
  const band = (channel: number, data: string) => pktLine(`${String.fromCharCode(channel)}${data}`);
  return Buffer.from(`${band(2, `${message}\n`)}${status ? band(1, status) : ''}${FLUSH}`);
}

/**
 * A DNS server on 127.0.0.1 that answers TXT questions from a map, so verification runs through
 * node:dns and the `dnsServer` setting without reaching the network. It speaks just enough of
 * RFC 1035 for one question per UDP query; a name it does not know answers NXDOMAIN.
 */
import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';

const TXT = 16;

function questionEnd(message: Buffer): { name: string; end: number } {
  const labels: string[] = [];
  let offset = 12;
  while (message[offset]! > 0) {
    const length = message[offset]!;
    labels.push(message.subarray(offset + 1, offset + 1 + length).toString('ascii'));
    offset += length + 1;
  }
  return { name: labels.join('.').toLowerCase(), end: offset + 5 };
}

function answer(query: Buffer, records: Map<string, string[]>): Buffer {
  const { name, end } = questionEnd(query);
  const type = query.readUInt16BE(end - 4);
  const texts = type === TXT ? records.get(name) : undefined;
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  header.writeUInt16BE(texts ? 0x8180 : 0x8183, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(texts?.length ?? 0, 6);
  const answers = (texts ?? []).map((text) => {
    const data = Buffer.concat([Buffer.from([Buffer.byteLength(text)]), Buffer.from(text)]);
    const fixed = Buffer.alloc(12);
    fixed.writeUInt16BE(0xc00c, 0);
    fixed.writeUInt16BE(TXT, 2);
    fixed.writeUInt16BE(1, 4);
    fixed.writeUInt32BE(60, 6);
    fixed.writeUInt16BE(data.length, 10);
    return Buffer.concat([fixed, data]);
  });
  return Buffer.concat([header, query.subarray(12, end), ...answers]);
}

export async function startDnsStub() {
  const records = new Map<string, string[]>();
  const socket = createSocket('udp4');
  socket.on('message', (query, peer) => socket.send(answer(query, records), peer.port, peer.address));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    records,
    server: `127.0.0.1:${(socket.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

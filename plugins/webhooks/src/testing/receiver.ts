/** A hook receiver on 127.0.0.1 for tests: records each request and answers with the status it is told. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

export async function startReceiver() {
  const received: Received[] = [];
  let status = 200;
  let answer = 'ok';
  let hang = false;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      received.push({ path: req.url ?? '/', headers: req.headers, body: text ? JSON.parse(text) : null });
      if (hang) return;
      res.writeHead(status, { 'Content-Type': 'text/plain', 'X-Receiver': 'yes' });
      res.end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    port,
    received,
    answerWith(nextStatus: number, body = 'ok') {
      status = nextStatus;
      answer = body;
    },
    hangForever(value: boolean) {
      hang = value;
    },
    /** Waits until a request the predicate accepts has arrived, and answers it. */
    async waitFor(predicate: (request: Received) => boolean) {
      const { vi } = await import('vitest');
      return vi.waitFor(
        () => {
          const found = received.find(predicate);
          if (!found) throw new Error('not delivered yet');
          return found;
        },
        { timeout: 10_000, interval: 20 },
      );
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

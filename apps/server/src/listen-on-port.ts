/**
 * Listens through listhen on exactly the configured host and port. listhen's defaults
 * would serve on another port when this one is taken (or when get-port-please deems it
 * unsafe), print banners on stdout, and exit on SIGTERM before the graceful shutdown;
 * all of that is turned off here.
 */
import type { RequestListener } from 'node:http';
import { createServer } from 'node:net';
import { isUnsafePort } from 'get-port-please';
import { listen, type Listener } from 'listhen';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1']);
// listhen replaces a host that does not match this with "any host", with only a warning.
const HOST_NAME = /^(?!-)[\d.:A-Za-z-]{1,63}(?<!-)$/;

export const hostAndPort = (host: string, port: number) => `${host.includes(':') ? `[${host}]` : host}:${port}`;

const FREE_PORT = 'set PORT (config key `port`) to a free port';

/** The system's error code for binding the port now; undefined when it binds. */
function bindErrorCode(port: number, host: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    probe.listen({ port, host }, () => probe.close(() => resolve(undefined)));
  });
}

async function cannotListen(port: number, host: string, cause: unknown): Promise<Error> {
  const where = hostAndPort(host, port);
  const code = await bindErrorCode(port, host);
  const reasons: Record<string, string> = {
    EADDRINUSE: `the port is already in use. Stop the process that holds it, or ${FREE_PORT}`,
    EACCES: `not permitted (ports below 1024 need privileges); ${FREE_PORT}`,
    EADDRNOTAVAIL: `${host} is not an address of this machine; check HOST (config key \`host\`)`,
  };
  const reason = (code && reasons[code]) ?? code ?? (cause instanceof Error ? cause.message : String(cause));
  return new Error(`Cannot listen on ${where}: ${reason}.`, { cause });
}

/** A URL a client on this machine can use: `localhost` for a server on every interface (`0.0.0.0`, `::`). */
export function serverUrlOf(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host;
  return `http://${hostAndPort(reachable, port)}`;
}

function checkHostAndPort(port: number, host: string) {
  if (!HOST_NAME.test(host))
    throw new Error(`Cannot listen on ${hostAndPort(host, port)}: '${host}' is not a valid host name or address. Check HOST (config key \`host\`).`);
  if (port !== 0 && isUnsafePort(port))
    throw new Error(
      `Cannot listen on ${hostAndPort(host, port)}: listhen does not serve on port ${port}, which browsers block as unsafe. Set PORT (config key \`port\`) to another port.`,
    );
}

/**
 * Binds `host`:`port` and lets it go: the port the workers of a cluster will share (a free
 * one for port 0), or the same error `listenOnPort` gives when it cannot be bound.
 */
export async function reservePort(port: number, host: string): Promise<number> {
  checkHostAndPort(port, host);
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ port, host }, resolve);
    });
  } catch (error) {
    throw await cannotListen(port, host, error);
  }
  const bound = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  return bound;
}

export async function listenOnPort(handler: RequestListener, port: number, host: string): Promise<Listener> {
  checkHostAndPort(port, host);
  let listener: Listener;
  try {
    listener = await listen(handler, {
      // Only this port: no list of others, no random fallback, and an empty alternative range
      // (its type only admits [from, to]).
      port: { port, random: port === 0, ports: [], alternativePortRange: [] as unknown as [number, number], verbose: false },
      hostname: host,
      // listhen's notion: local hosts are private; anything else (including 0.0.0.0 and ::) public.
      public: !LOCAL_HOSTS.has(host),
      showURL: false,
      qr: false,
      open: false,
      clipboard: false,
      autoClose: false,
    });
  } catch (error) {
    throw await cannotListen(port, host, error);
  }
  if (port !== 0 && listener.address.port !== port) {
    // Never expected with the options above; a guard against serving on a port nobody asked for.
    await listener.close();
    throw await cannotListen(port, host, new Error(`listhen chose port ${listener.address.port}`));
  }
  return listener;
}

/** Plain REST calls, as curl scripts make them, for what the client libraries lack. */
import type { ListeningServer } from './listening-server.js';

export interface RestAnswer {
  status: number;
  /** The parsed JSON body, the text of another body, or null for none. */
  body: any;
}

/** `method path` below `/api/v4`, with the token (if any) in `PRIVATE-TOKEN` and a JSON body. */
export async function rest(server: Pick<ListeningServer, 'url'>, method: string, path: string, token: string | null, body?: unknown): Promise<RestAnswer> {
  const res = await fetch(`${server.url}/api/v4${path}`, {
    method,
    headers: { ...(token ? { 'PRIVATE-TOKEN': token } : {}), 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').startsWith('application/json');
  return { status: res.status, body: text === '' ? null : json ? JSON.parse(text) : text };
}

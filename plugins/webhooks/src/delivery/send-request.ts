/**
 * One hook request over node:http(s), connected to the address the outbound guard checked
 * (its `lookup` answers that address), with a timeout and GitLab's size limits: the body at
 * most 25 MB, the response kept to 8 KB and 50 headers of 1 KB each. Hand-written on
 * node:http rather than fetch because fetch cannot pin the connection to a checked address.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

export const MAX_REQUEST_BYTES = 25 * 1024 * 1024;
const MAX_RESPONSE_BYTES = 8 * 1024;
const MAX_RESPONSE_HEADERS = 50;
const MAX_HEADER_BYTES = 1024;

export interface HookResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface OutgoingRequest {
  url: URL;
  address: { address: string; family: 4 | 6 };
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  verifyTls: boolean;
}

function keptHeaders(response: IncomingMessage) {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers).slice(0, MAX_RESPONSE_HEADERS)) {
    headers[name] = (Array.isArray(value) ? value.join(', ') : String(value ?? '')).slice(0, MAX_HEADER_BYTES);
  }
  return headers;
}

export function sendRequest(outgoing: OutgoingRequest): Promise<HookResponse> {
  const { url, address } = outgoing;
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [address]);
    else callback(null, address.address, address.family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: 'POST',
        headers: { ...outgoing.headers, 'Content-Length': String(Buffer.byteLength(outgoing.body)) },
        lookup: pinned,
        rejectUnauthorized: outgoing.verifyTls,
        timeout: outgoing.timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < MAX_RESPONSE_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () => {
          resolve({
            status: response.statusCode ?? 0,
            headers: keptHeaders(response),
            body: Buffer.concat(chunks).toString('utf8').slice(0, MAX_RESPONSE_BYTES),
          });
        });
        response.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('execution expired')));
    req.on('error', reject);
    req.end(outgoing.body);
  });
}

/**
 * The bare `node:http` baseline: answers every request with one fixed JSON body.
 * Usage: node bench/baseline-server.mjs <port> <body-file>
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [port, bodyFile] = process.argv.slice(2);
const body = readFileSync(bodyFile);
const headers = { 'content-type': 'application/json', 'content-length': String(body.length) };

createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
}).listen(Number(port), '127.0.0.1');

process.once('SIGTERM', () => process.exit(0));

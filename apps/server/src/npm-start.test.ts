import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive, isJsonLine, REPO_ROOT, startServerProcess, type ServerProcess } from './test-support/server-process.js';

/**
 * `npm start` as Docker and systemd stop it: SIGTERM to npm itself. npm hands the signal to
 * its script, whose shell has become the server (`exec node …`), so the server drains what
 * it is doing and exits 0, npm with it, and no process is left. The build step is turbo's
 * cache after `npm test` has built.
 */
describe('npm start', () => {
  const rootToken = 'fkpat-npm-start-root-token';
  let dataDir: string;
  let npm: ServerProcess;
  let listening: { url: string; pid: number };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'forgekit-npm-start-'));
    npm = startServerProcess(
      { PORT: '0', HOST: '127.0.0.1', FORGEKIT_DATA_DIR: dataDir, FORGEKIT_ROOT_TOKEN: rootToken },
      { command: 'npm', args: ['start'], cwd: REPO_ROOT },
    );
    const line = await npm.waitForLine((text) => !isJsonLine(text) || JSON.parse(text).msg === 'listening');
    if (line === null || !isJsonLine(line)) throw new Error(`npm start did not serve:\n${npm.stdout.join('\n')}\n${npm.stderr()}`);
    listening = JSON.parse(line);
  }, 300_000);

  afterAll(async () => {
    await npm?.stop('SIGKILL');
    if (listening && isAlive(listening.pid)) process.kill(listening.pid, 'SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('drains a request in flight on SIGTERM, exits 0 and leaves no process behind', async () => {
    expect(listening.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(listening.pid).not.toBe(npm.pid);
    // A project created by a request that is still sending its body when SIGTERM arrives:
    // `Expect: 100-continue` tells us the server has taken the request before we signal.
    const body = JSON.stringify({ name: 'Created during shutdown' });
    const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        `${listening.url}/api/v4/projects`,
        {
          method: 'POST',
          headers: { 'PRIVATE-TOKEN': rootToken, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Expect: '100-continue' },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, text }));
        },
      );
      req.on('error', reject);
      req.on('continue', () => {
        process.kill(npm.pid, 'SIGTERM');
        req.end(body);
      });
      req.flushHeaders();
    });
    const { status, text } = await answered;
    expect(status, text).toBe(201);
    expect(JSON.parse(text)).toMatchObject({ name: 'Created during shutdown' });
    expect(await npm.exited).toBe(0);
    expect(isAlive(listening.pid)).toBe(false);
    const messages = npm.stdout.map((line) => JSON.parse(line).msg);
    expect(messages).toContain('shutting down');
    expect(messages.at(-1)).not.toBe('listening');
  });

  it("put nothing but the server's JSON lines on stdout: npm's banner and turbo's output went to stderr", () => {
    for (const line of npm.stdout) expect(isJsonLine(line), `stdout line: ${line}`).toBe(true);
    expect(npm.stderr()).toContain('> start\n> TURBO_TELEMETRY_DISABLED=1 turbo run build');
  });

  it('kept its data in the data dir it was given', async () => {
    expect((await readdir(dataDir)).sort()).toEqual(expect.arrayContaining(['forgekit.sqlite', 'secrets.key']));
  });
});

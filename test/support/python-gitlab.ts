/** python-gitlab (Debian's python3-gitlab) against a listening server. */
import { execFile } from 'node:child_process';
import type { ListeningServer } from './listening-server.js';

/** Runs a script with `gl` logged in as the token's user; the script prints one JSON document, which is answered. */
export function python(server: ListeningServer, token: string, script: string): Promise<any> {
  const program = `import gitlab, json, sys\ngl = gitlab.Gitlab(sys.argv[1], private_token=sys.argv[2])\n${script}`;
  return new Promise((resolve, reject) =>
    execFile('/usr/bin/python3', ['-c', program, server.url, token], (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
    ),
  );
}

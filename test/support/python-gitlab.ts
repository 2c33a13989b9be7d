/** python-gitlab (Debian's python3-gitlab) against a listening server. */
import type { ListeningServer } from './listening-server.js';
import { ensurePythonGitlab, PYTHON, pythonEnv, run } from './python-gitlab-packages.js';

/** Runs `python3 -c program args…` where `import gitlab` works; answers its stdout. */
export async function runPython(program: string, args: readonly string[]): Promise<string> {
  await ensurePythonGitlab();
  return (await run(PYTHON, ['-c', program, ...args], { env: pythonEnv() })).stdout;
}

/** Runs a script with `gl` logged in as the token's user; the script prints one JSON document, which is answered. */
export async function python(server: ListeningServer, token: string, script: string): Promise<any> {
  const program = `import gitlab, json, sys\ngl = gitlab.Gitlab(sys.argv[1], private_token=sys.argv[2])\n${script}`;
  return JSON.parse(await runPython(program, [server.url, token]));
}

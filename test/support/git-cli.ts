import { execFile } from 'node:child_process';

/** Runs the git CLI as a user named Dev, with `home` as HOME and no system config or prompts; resolves with trimmed stdout. */
export const gitCli =
  (home: string) =>
  (cwd: string, ...args: string[]) =>
    new Promise<string>((resolve, reject) =>
      execFile(
        'git',
        args,
        {
          cwd,
          env: {
            PATH: process.env.PATH ?? '/usr/bin:/bin',
            HOME: home,
            GIT_CONFIG_NOSYSTEM: '1',
            GIT_TERMINAL_PROMPT: '0',
            GIT_AUTHOR_NAME: 'Dev',
            GIT_AUTHOR_EMAIL: 'dev@example.com',
            GIT_COMMITTER_NAME: 'Dev',
            GIT_COMMITTER_EMAIL: 'dev@example.com',
          },
        },
        (error, stdout, stderr) => (error ? reject(new Error(`git ${args.join(' ')}: ${stderr}`)) : resolve(stdout.toString().trim())),
      ),
    );

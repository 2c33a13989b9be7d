/**
 * Where the black-box tests find python-gitlab: the system's (Debian's python3-gitlab), or,
 * on a Debian machine without it, Debian's packages unpacked into a cache below
 * node_modules. Unpacking needs no root and changes nothing outside the checkout, so
 * `npm test` sets itself up on a fresh machine.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** Runs a command; a failure's message carries the command and its stderr. */
export const run = promisify(execFile);

export const PYTHON = '/usr/bin/python3';

/** python3-gitlab and the Python packages it needs that a minimal Debian lacks (all pure Python). */
const DEBIAN_PACKAGES = [
  'python3-gitlab',
  'python3-requests',
  'python3-requests-toolbelt',
  'python3-urllib3',
  'python3-idna',
  'python3-certifi',
  'python3-charset-normalizer',
  'python3-chardet',
];

const cacheDir = join(dirname(fileURLToPath(import.meta.url)), '../../node_modules/.cache/python-gitlab');
const sitePackages = join(cacheDir, 'usr/lib/python3/dist-packages');
/** Written last into an unpacked tree: the cache is whole once it holds this file. */
const MARKER = '.complete';
const completeMarker = join(cacheDir, MARKER);

/** The environment python3 needs to import gitlab: PYTHONPATH when the unpacked packages serve. */
export function pythonEnv(): NodeJS.ProcessEnv {
  return existsSync(completeMarker) ? { ...process.env, PYTHONPATH: sitePackages } : process.env;
}

const importsGitlab = () =>
  run(PYTHON, ['-c', 'import gitlab'], { env: pythonEnv() }).then(
    () => true,
    () => false,
  );

/**
 * Makes `import gitlab` work, unpacking Debian's packages when the system has none, or
 * throws saying how to install it. Test files run in parallel workers: each unpacks into a
 * folder of its own and renames it into place, so the first one finished serves them all.
 */
async function provide(): Promise<void> {
  if (await importsGitlab()) return;
  const work = await mkdtemp(join(tmpdir(), 'forgekit-python-gitlab-'));
  const unpacked = join(work, 'root');
  try {
    await run('apt-get', ['download', ...DEBIAN_PACKAGES], { cwd: work });
    for (const deb of await readdir(work)) if (deb.endsWith('.deb')) await run('dpkg-deb', ['-x', join(work, deb), unpacked]);
    await writeFile(join(unpacked, MARKER), `${DEBIAN_PACKAGES.join('\n')}\n`);
    await mkdir(dirname(cacheDir), { recursive: true });
    await rename(unpacked, cacheDir).catch((error: NodeJS.ErrnoException) => {
      if (!existsSync(completeMarker)) throw error;
    });
  } catch (error) {
    throw new Error(
      `The black-box tests drive python-gitlab, which ${PYTHON} cannot import, and Debian's packages could not be unpacked ` +
        `(${(error as Error).message.split('\n')[0]}). Install python3-gitlab (Debian, Ubuntu) or python-gitlab for ${PYTHON}.`,
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  if (!(await importsGitlab())) throw new Error(`python-gitlab was unpacked into ${cacheDir}, but ${PYTHON} still cannot import it`);
}

let provided: Promise<void> | undefined;

/** `provide`, once per worker. */
export const ensurePythonGitlab = () => (provided ??= provide());

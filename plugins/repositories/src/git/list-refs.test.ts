import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRefs } from './repo-reader.js';

const run = promisify(execFile);

describe('listRefs', () => {
  let dir: string;
  let work: string;
  const at = (iso: string) => ({
    ...process.env,
    GIT_CONFIG_NOSYSTEM: '1',
    HOME: dir,
    GIT_AUTHOR_NAME: 'A',
    GIT_AUTHOR_EMAIL: 'a@example.com',
    GIT_COMMITTER_NAME: 'A',
    GIT_COMMITTER_EMAIL: 'a@example.com',
    GIT_AUTHOR_DATE: iso,
    GIT_COMMITTER_DATE: iso,
  });
  const git = (iso: string, ...args: string[]) => run('git', args, { cwd: work, env: at(iso) });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'forgekit-refs-'));
    work = join(dir, 'work');
    await run('git', ['init', '--quiet', '--initial-branch=main', work]);
    await git('2024-01-01T10:00:00Z', 'commit', '--allow-empty', '-m', 'first');
    await git('2024-01-01T10:00:00Z', 'tag', 'light');
    await git('2024-02-01T10:00:00Z', 'commit', '--allow-empty', '-m', 'second');
    // Tagged long after its commit: the tag's own date is not its commit's.
    await git('2024-06-01T10:00:00Z', 'tag', '-a', 'annotated', '-m', 'Release');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("gives each tag its commit's committer date, peeling annotated tags, beside the tag's own date", async () => {
    const tags = await listRefs(join(work, '.git'), 'tags');
    const byName = Object.fromEntries(tags.map((tag) => [tag.name, tag]));
    expect(Date.parse(byName.light!.committedDate)).toBe(Date.parse('2024-01-01T10:00:00Z'));
    expect(byName.light!.tagDate).toBeNull();
    expect(Date.parse(byName.annotated!.committedDate)).toBe(Date.parse('2024-02-01T10:00:00Z'));
    expect(Date.parse(byName.annotated!.tagDate!)).toBe(Date.parse('2024-06-01T10:00:00Z'));
    expect(byName.annotated!.tagMessage).toBe('Release');
  });

  it('gives branches their head commit date', async () => {
    const [main] = await listRefs(join(work, '.git'), 'branches');
    expect(main!.name).toBe('main');
    expect(Date.parse(main!.committedDate)).toBe(Date.parse('2024-02-01T10:00:00Z'));
  });
});

import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBlobsById } from './repo-reader.js';

const run = promisify(execFile);

describe('readBlobsById', () => {
  let dir: string;
  const hashed = async (content: Buffer) => {
    const file = join(dir, 'blob');
    await writeFile(file, content);
    return (await run('git', ['--git-dir', join(dir, 'repo.git'), 'hash-object', '-w', file])).stdout.trim();
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'forgekit-blobs-'));
    await run('git', ['init', '--quiet', '--bare', join(dir, 'repo.git')]);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads several blobs in one go, bytes intact, leaving out unknown and malformed ids', async () => {
    const text = Buffer.from('line one\nline two\n');
    const binary = Buffer.from([0, 10, 255, 10, 10, 1]);
    const empty = Buffer.alloc(0);
    const ids = [await hashed(text), await hashed(binary), await hashed(empty)];
    const found = await readBlobsById(join(dir, 'repo.git'), [...ids, 'f'.repeat(40), '--batch-all-objects', ids[0]!]);
    expect([...found.keys()]).toEqual(ids);
    expect(found.get(ids[0]!)!.data).toEqual(text);
    expect(found.get(ids[1]!)!.data).toEqual(binary);
    expect(found.get(ids[2]!)).toEqual({ id: ids[2], mode: '100644', size: 0, data: empty });
    expect((await readBlobsById(join(dir, 'repo.git'), [])).size).toBe(0);
  });
});

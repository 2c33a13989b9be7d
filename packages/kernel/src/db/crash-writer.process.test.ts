/**
 * The writing process of group-commit.crash.test.ts: started by it with a SQLite file and
 * an acknowledgement file, it writes from several concurrent writers (transactions and
 * single inserts, some failing) until it is killed, and appends the name of every write
 * it was answered for to the acknowledgement file, the moment the answer arrives.
 * Skipped unless started that way.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CRASH_ENV, CrashItem } from './crash-fixture.js';
import { openDatabase } from './open-database.js';

const file = process.env[CRASH_ENV.database];
const acks = process.env[CRASH_ENV.acks];

describe.skipIf(!file || !acks)('a process writing until it is killed', () => {
  it('writes and acknowledges', { timeout: 300_000 }, async () => {
    const database = await openDatabase({ url: file!, dataDir: dirname(file!), entities: [CrashItem] });
    const out = openSync(acks!, 'a');
    const writer = async (w: number) => {
      for (let n = 0; ; n++) {
        const name = `w${w}-${n}`;
        try {
          if (n % 3 === 0) await database.insert(CrashItem, { name });
          else if (n % 7 === 1) {
            // Fails on the unique name after its first insert: nothing of it lands.
            await database.transaction(async (tx) => {
              await database.insert(CrashItem, { name: `${name}-doomed` }, { tx });
              await database.insert(CrashItem, { name: 'taken' }, { tx });
            });
          } else {
            await database.transaction(async (tx) => {
              await database.insert(CrashItem, { name: `${name}-first` }, { tx });
              await database.insert(CrashItem, { name }, { tx });
            });
          }
          writeSync(out, `${name}\n`);
        } catch {
          writeSync(out, `failed ${name}\n`);
        }
      }
    };
    await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map(writer));
    closeSync(out);
    expect.unreachable();
  });
});

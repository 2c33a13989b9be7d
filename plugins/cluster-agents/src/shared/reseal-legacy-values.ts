/**
 * Re-seals URL-configuration keys written by earlier versions (`plain:` or under the
 * deprecated `encryptionKey`) with the kernel's secrets key. Runs at every start; a
 * value another process re-sealed first is left as that process wrote it.
 */
import type { Knex } from '@forgekit/kernel/orm';
import { LEGACY_PREFIXES, type SecretBox } from './secret-box.js';

const TABLE = 'cluster_agent_url_configurations';
const SEALED_COLUMNS = ['private_key', 'client_key'] as const;

export interface ResealOutcome {
  resealed: number;
  /** Values under the deprecated key while that key is not given. */
  unopened: number;
}

export async function resealLegacyValues(db: Knex, box: SecretBox): Promise<ResealOutcome> {
  const isLegacy = (value: string | null): value is string => !!value && LEGACY_PREFIXES.some((prefix) => value.startsWith(prefix));
  const rows: { id: number; private_key: string | null; client_key: string | null }[] = await db(TABLE)
    .select('id', ...SEALED_COLUMNS)
    .where((query) => {
      for (const column of SEALED_COLUMNS) for (const prefix of LEGACY_PREFIXES) query.orWhere(column, 'like', `${prefix}%`);
    });
  const outcome: ResealOutcome = { resealed: 0, unopened: 0 };
  for (const row of rows) {
    for (const column of SEALED_COLUMNS) {
      const value = row[column];
      if (!isLegacy(value)) continue;
      let bytes: Buffer;
      try {
        bytes = box.open(value);
      } catch {
        outcome.unopened++;
        continue;
      }
      outcome.resealed += await db(TABLE)
        .where({ id: row.id, [column]: value })
        .update({ [column]: box.seal(bytes) });
    }
  }
  return outcome;
}

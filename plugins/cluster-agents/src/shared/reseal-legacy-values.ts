/**
 * Re-seals URL-configuration keys written by earlier versions (`plain:` or under the
 * deprecated `encryptionKey`) with the kernel's secrets key. Runs at every start; a
 * value another process re-sealed first is left as that process wrote it.
 */
import type { Database } from '@forgekit/kernel';
import { ClusterAgentUrlConfigurationEntity } from '../entities/cluster-agent-url-configuration.js';
import { LEGACY_PREFIXES, type SecretBox } from './secret-box.js';

/** The columns that hold sealed values. */
const SEALED = ['privateKey', 'clientKey'] as const;

export interface ResealOutcome {
  resealed: number;
  /** Values under the deprecated key while that key is not given. */
  unopened: number;
}

export async function resealLegacyValues(database: Database, box: SecretBox): Promise<ResealOutcome> {
  const isLegacy = (value: string | null | undefined): value is string => !!value && LEGACY_PREFIXES.some((prefix) => value.startsWith(prefix));
  const rows = await database.rows(
    database.from(ClusterAgentUrlConfigurationEntity).where((query) => {
      for (const property of SEALED) for (const prefix of LEGACY_PREFIXES) query.orWhere((written) => written.whereStartsWith(property, prefix));
    }),
  );
  const outcome: ResealOutcome = { resealed: 0, unopened: 0 };
  for (const row of rows) {
    for (const property of SEALED) {
      const value = row[property];
      if (!isLegacy(value)) continue;
      let bytes: Buffer;
      try {
        bytes = box.open(value);
      } catch {
        outcome.unopened++;
        continue;
      }
      outcome.resealed += await database.update(ClusterAgentUrlConfigurationEntity, { id: row.id, [property]: value }, { [property]: box.seal(bytes) });
    }
  }
  return outcome;
}

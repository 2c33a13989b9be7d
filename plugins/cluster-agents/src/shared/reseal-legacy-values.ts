/**
 * Re-seals URL-configuration keys written by earlier versions (`plain:` or under the
 * deprecated `encryptionKey`) with the kernel's secrets key. Runs at every start; a
 * value another process re-sealed first is left as that process wrote it.
 */
import type { Database } from '@forgekit/kernel';
import { ClusterAgentUrlConfiguration } from '../entities/cluster-agent-url-configuration.js';
import { LEGACY_PREFIXES, type SecretBox } from './secret-box.js';

const SEALED = { privateKey: 'private_key', clientKey: 'client_key' } as const;

export interface ResealOutcome {
  resealed: number;
  /** Values under the deprecated key while that key is not given. */
  unopened: number;
}

export async function resealLegacyValues(database: Database, box: SecretBox): Promise<ResealOutcome> {
  const isLegacy = (value: string | null | undefined): value is string => !!value && LEGACY_PREFIXES.some((prefix) => value.startsWith(prefix));
  const rows = await database.legacy.rows(
    ClusterAgentUrlConfiguration,
    database.legacy.from(ClusterAgentUrlConfiguration).where((query) => {
      for (const column of Object.values(SEALED)) for (const prefix of LEGACY_PREFIXES) query.orWhere(column, 'like', `${prefix}%`);
    }),
  );
  const outcome: ResealOutcome = { resealed: 0, unopened: 0 };
  for (const row of rows) {
    for (const property of Object.keys(SEALED) as (keyof typeof SEALED)[]) {
      const value = row[property];
      if (!isLegacy(value)) continue;
      let bytes: Buffer;
      try {
        bytes = box.open(value);
      } catch {
        outcome.unopened++;
        continue;
      }
      outcome.resealed += await database.legacy
        .em()
        .nativeUpdate(ClusterAgentUrlConfiguration, { id: row.id, [property]: value }, { [property]: box.seal(bytes) });
    }
  }
  return outcome;
}

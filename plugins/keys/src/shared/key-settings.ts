/** The instance's key restrictions: application settings `<type>_key_restriction`, as GitLab has them. */
import { f } from '@forgekit/kernel';
import type { SettingsService } from '@forgekit/plugin-core/contracts';
import type { KeyRestrictions } from './key-rules.js';
import { FORBIDDEN_KEY_VALUE } from './key-rules.js';
import { TECHNOLOGIES } from './public-key.js';

const settingOf = (technology: string) => `${technology}_key_restriction`;

/** Each type's setting takes 0 (any size), -1 (forbidden) or one of the sizes GitLab supports for it. */
export function defineKeySettings(settings: SettingsService) {
  for (const { name, sizes } of TECHNOLOGIES) {
    settings.define('keys', settingOf(name), f.values([0, FORBIDDEN_KEY_VALUE, ...sizes], f.integer()), 0);
  }
}

/** The restrictions in force, read in one query. */
export async function readKeyRestrictions(settings: SettingsService): Promise<KeyRestrictions> {
  const all = await settings.all();
  return Object.fromEntries(TECHNOLOGIES.map(({ name }) => [name, Number(all[settingOf(name)] ?? 0)])) as KeyRestrictions;
}

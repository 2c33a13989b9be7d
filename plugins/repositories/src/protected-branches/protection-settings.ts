/**
 * The instance's default branch protection: GitLab's `default_branch_protection` level
 * (0 not protected, 1 Developers may push, 2 fully protected, 3 Developers may merge,
 * 4 fully protected after the initial push) and its newer form, the
 * `default_branch_protection_defaults` hash; setting either keeps the other in step.
 */
import * as v from 'valibot';
import { f } from '@forgekit/kernel';
import { branchProtectionDefaults, type SettingsService } from '@forgekit/plugin-core/contracts';
import { protectionLevelOf, PROTECTION_ACCESS_LEVELS, type BranchProtectionDefaults } from './branch-policy.js';
import { DEFAULT_BRANCH_PROTECTION_DEFAULTS_KEY } from './branch-protection.js';

/** GitLab's default: fully protected. */
export const DEFAULT_PROTECTION_LEVEL = 2;

/** A list param from JSON (`[...]`) or a form body (`x[0][access_level]=40`, keyed by index). */
const listOf = (value: unknown): unknown[] | null =>
  Array.isArray(value)
    ? value
    : typeof value === 'object' && value !== null && Object.keys(value).every((key) => /^\d+$/.test(key))
      ? Object.values(value)
      : null;

function accessLevels(value: unknown): { access_level: number }[] | null {
  const list = listOf(value);
  if (!list) return null;
  const levels: { access_level: number }[] = [];
  for (const entry of list) {
    const parsed = v.safeParse(f.integer(), (entry as Record<string, unknown> | null)?.access_level);
    if (!parsed.success || !(PROTECTION_ACCESS_LEVELS as readonly number[]).includes(parsed.output)) return null;
    levels.push({ access_level: parsed.output });
  }
  return levels;
}

/** The hash, each key optional (a missing key keeps GitLab's default for it). */
function defaultsField(): v.GenericSchema<unknown, BranchProtectionDefaults> {
  return v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const value = dataset.value as Record<string, unknown> | null;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        addIssue({ message: 'is invalid' });
        return NEVER;
      }
      const result: BranchProtectionDefaults = { ...branchProtectionDefaults(DEFAULT_PROTECTION_LEVEL), developer_can_initial_push: false };
      for (const key of ['allowed_to_push', 'allowed_to_merge'] as const) {
        if (value[key] === undefined) continue;
        const levels = accessLevels(value[key]);
        if (!levels) {
          addIssue({ message: 'is invalid' });
          return NEVER;
        }
        result[key] = levels;
      }
      for (const key of ['allow_force_push', 'developer_can_initial_push'] as const) {
        if (value[key] === undefined) continue;
        const parsed = v.safeParse(f.boolean(), value[key]);
        if (!parsed.success) {
          addIssue({ message: 'is invalid' });
          return NEVER;
        }
        result[key] = parsed.output;
      }
      return result;
    }),
  ) as v.GenericSchema<unknown, BranchProtectionDefaults>;
}

export function defineProtectionSettings(settings: SettingsService) {
  settings.define('repositories', 'default_branch_protection', f.values([0, 1, 2, 3, 4], f.integer()), DEFAULT_PROTECTION_LEVEL, {
    derive: (level) => ({ [DEFAULT_BRANCH_PROTECTION_DEFAULTS_KEY]: branchProtectionDefaults(level) }),
  });
  settings.define(
    'repositories',
    DEFAULT_BRANCH_PROTECTION_DEFAULTS_KEY,
    defaultsField(),
    branchProtectionDefaults(DEFAULT_PROTECTION_LEVEL) as BranchProtectionDefaults,
    {
      derive: (defaults) => ({ default_branch_protection: protectionLevelOf(defaults) }),
    },
  );
}

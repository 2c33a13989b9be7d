/** The runner settings a registration or creation request may carry, as fields and as settings. */
import { f, patchFrom } from '@forgekit/kernel';
import { normalizeTags, type RunnerSettings } from './runner-attributes.js';
import { ACCESS_LEVELS } from './runner-row.js';

export const settingFields = {
  description: f.optional(f.string()),
  maintenance_note: f.optional(f.string()),
  paused: f.optional(f.boolean()),
  locked: f.optional(f.boolean()),
  access_level: f.optional(f.values([...ACCESS_LEVELS])),
  run_untagged: f.optional(f.boolean()),
  tag_list: f.optional(f.commaList()),
  maximum_timeout: f.optional(f.integer()),
};

export interface SettingInput {
  description?: string | null;
  maintenance_note?: string | null;
  active?: boolean | null;
  paused?: boolean | null;
  locked?: boolean | null;
  access_level?: string | null;
  run_untagged?: boolean | null;
  tag_list?: string[] | null;
  maximum_timeout?: number | null;
}

/** Sent empty, these keep the model's defaults, as if not sent. */
const IGNORED_WHEN_EMPTY = ['active', 'locked', 'run_untagged', 'access_level', 'tag_list'] as const;

/** `paused` wins over the deprecated `active`. */
export function toSettings(input: SettingInput): RunnerSettings {
  const sent = { ...input };
  for (const key of IGNORED_WHEN_EMPTY) if (sent[key] === null) delete sent[key];
  return patchFrom<RunnerSettings, SettingInput>(sent, {
    description: 'description',
    maintenance_note: 'maintenance_note',
    maximum_timeout: 'maximum_timeout',
    active: 'active',
    paused: { to: 'active', as: (paused) => !paused },
    locked: 'locked',
    run_untagged: 'run_untagged',
    access_level: 'access_level',
    tag_list: { to: 'tag_list', as: (tags) => normalizeTags(tags!) },
  });
}

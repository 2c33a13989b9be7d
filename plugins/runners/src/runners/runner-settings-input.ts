/** The runner settings a registration or creation request may carry, as fields and as settings. */
import { f } from '@forgekit/kernel';
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

const given = <T>(value: T | null | undefined): value is T => value !== undefined && value !== null;

/** `paused` wins over the deprecated `active`; absent values keep the model's defaults. */
export function toSettings(input: SettingInput): RunnerSettings {
  const settings: RunnerSettings = {};
  if (input.description !== undefined) settings.description = input.description;
  if (input.maintenance_note !== undefined) settings.maintenance_note = input.maintenance_note;
  if (input.maximum_timeout !== undefined) settings.maximum_timeout = input.maximum_timeout;
  if (input.paused !== undefined) settings.active = !input.paused;
  else if (given(input.active)) settings.active = input.active;
  if (given(input.locked)) settings.locked = input.locked;
  if (given(input.run_untagged)) settings.run_untagged = input.run_untagged;
  if (given(input.access_level)) settings.access_level = input.access_level;
  if (given(input.tag_list)) settings.tag_list = normalizeTags(input.tag_list);
  return settings;
}

/** Schedule inputs: `{name, value}` pairs, changed by name on update. */
import { charLength } from '@forgekit/kernel';
import type { InputChanges } from './schedule-store.js';

/** Inputs one pipeline may take (GitLab's pipeline inputs limit). */
export const INPUTS_LIMIT = 20;
export const INPUT_NAME_LIMIT = 255;
/** The longest value as JSON, in characters: GitLab's limit on an interpolated input's size. */
export const INPUT_VALUE_LIMIT = 1024;

/** GitLab measures an input's value by the length of its JSON. */
export const inputValueError = (value: unknown): string | null =>
  charLength(JSON.stringify(value)) > INPUT_VALUE_LIMIT ? `exceeds max serialized size: ${INPUT_VALUE_LIMIT} characters` : null;

export interface InputItem {
  name: string;
  value?: unknown;
  /** Either flag set to true removes the input of that name. */
  destroy?: boolean | null;
  _destroy?: boolean | null;
}

export interface InputPlan {
  changes: InputChanges;
  /** Names sent more than once (not counting removals), in first-seen order. */
  duplicates: string[];
  /** Names sent, for the per-name rules. */
  names: string[];
  /** How many inputs the schedule has afterwards. */
  total: number;
}

const removes = (item: InputItem) => item.destroy === true || item._destroy === true;

/** Applies the sent items, in order, to the schedule's current input names. */
export function planInputs(existing: readonly string[], items: readonly InputItem[]): InputPlan {
  const present = new Set(existing);
  const changes: InputChanges = { upsert: new Map(), remove: new Set() };
  const seen = new Set<string>();
  const duplicates: string[] = [];
  for (const item of items) {
    if (removes(item)) {
      present.delete(item.name);
      changes.upsert.delete(item.name);
      if (existing.includes(item.name)) changes.remove.add(item.name);
      continue;
    }
    if (seen.has(item.name) && !duplicates.includes(item.name)) duplicates.push(item.name);
    seen.add(item.name);
    present.add(item.name);
    changes.upsert.set(item.name, item.value);
    changes.remove.delete(item.name);
  }
  return { changes, duplicates, names: items.map((item) => item.name), total: present.size };
}

/** The settable runner attributes and GitLab's model validations over them. */
import { longerThan, tooLongMessage } from '@forgekit/kernel';

export interface RunnerSettings {
  name?: string | null;
  description?: string | null;
  active?: boolean;
  run_untagged?: boolean;
  locked?: boolean;
  access_level?: string;
  maximum_timeout?: number | null;
  maintenance_note?: string | null;
  tag_list?: string[];
}

export const TAG_LIST_MAX_LENGTH = 50;
const NAME_LIMIT = 256;
const DESCRIPTION_LIMIT = 1024;
const MAINTENANCE_NOTE_LIMIT = 1024;
/** A tag's name, as GitLab's tag model limits it. */
const TAG_NAME_LIMIT = 255;

/** What validation needs of a stored runner; null when creating one. */
export interface StoredRunnerState {
  runUntagged: boolean;
  tags: string[];
  maximumTimeout: number | null;
  maintenanceNote: string | null;
}

export type ModelErrors = Record<string, string[]>;

/** Errors keyed by attribute, in the order GitLab's runner model reports them. */
export function runnerErrors(stored: StoredRunnerState | null, changes: RunnerSettings, errors: ModelErrors = {}): ModelErrors {
  const add = (key: string, message: string) => (errors[key] ??= []).push(message);
  const tags = changes.tag_list ?? stored?.tags ?? [];
  const runUntagged = changes.run_untagged ?? stored?.runUntagged ?? true;
  if (tags.length === 0 && !runUntagged) add('tags_list', 'can not be empty when runner is not allowed to pick untagged jobs');
  if (changes.tag_list !== undefined && tags.length > TAG_LIST_MAX_LENGTH) {
    add('tags_list', `Too many tags specified. Please limit the number of tags to ${TAG_LIST_MAX_LENGTH}`);
  }
  if (changes.tag_list !== undefined && tags.some((tag) => longerThan(tag, TAG_NAME_LIMIT))) add('tags.name', tooLongMessage(TAG_NAME_LIMIT));
  if (changes.name && longerThan(changes.name, NAME_LIMIT)) add('name', tooLongMessage(NAME_LIMIT));
  if (changes.description && longerThan(changes.description, DESCRIPTION_LIMIT)) add('description', tooLongMessage(DESCRIPTION_LIMIT));
  const timeout = changes.maximum_timeout !== undefined ? changes.maximum_timeout : stored?.maximumTimeout;
  if (timeout !== null && timeout !== undefined && timeout < 600) add('maximum_timeout', 'needs to be at least 10 minutes');
  const note = changes.maintenance_note !== undefined ? changes.maintenance_note : stored?.maintenanceNote;
  if (note && longerThan(note, MAINTENANCE_NOTE_LIMIT)) add('maintenance_note', tooLongMessage(MAINTENANCE_NOTE_LIMIT));
  return errors;
}

/** What a runner reports about the machine it runs on, with the lengths GitLab's runner manager model allows. */
const MANAGER_LIMITS = { system_xid: 64, version: 2048, revision: 255, platform: 255, architecture: 255 } as const;

export type ManagerReport = Partial<Record<keyof typeof MANAGER_LIMITS, string | null>>;

export function managerErrors(report: ManagerReport): ModelErrors {
  const errors: ModelErrors = {};
  for (const [key, max] of Object.entries(MANAGER_LIMITS)) {
    const value = report[key as keyof ManagerReport];
    if (value && longerThan(value, max)) errors[key] = [tooLongMessage(max)];
  }
  return errors;
}

/** Tags as a runner keeps them: trimmed, no blanks, no repeats. */
export function normalizeTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((tag) => tag.trim()).filter((tag) => tag !== ''))];
}

/** Rails' `humanize` of an error key: `runner_projects.base` → `Runner projects base`. */
function humanize(key: string): string {
  const words = key.replace(/\./g, '_').replace(/_id$/, '').replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Rails' `full_messages`. */
export function fullMessages(errors: ModelErrors): string[] {
  return Object.entries(errors).flatMap(([key, messages]) => messages.map((message) => (key === 'base' ? message : `${humanize(key)} ${message}`)));
}

/** Ruby's `Array#to_sentence`. */
export function toSentence(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  if (items.length === 2) return `${items[0]} and ${items[1]}`;
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}

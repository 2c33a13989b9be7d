/** GitLab's milestone model rules: how titles and dates are taken, and its validations in order. */
import { longerThan, TEXT_LIMIT, tooLongMessage } from '@forgekit/kernel';

export const TITLE_LIMIT = 255;
const LAST_DAY = '9999-12-31';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: '\u00a0' };

/** GitLab strips markup from titles, unescapes entities and trims; a blank title is not taken. */
export function cleanTitle(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const text = value.replace(/<[^>]*>/g, '').replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_m, name: string) => ENTITIES[name]!);
  return text.trim();
}

const pad = (value: string, width: number) => value.padStart(width, '0');

/**
 * A date as Rails casts a string: `YYYY-MM-DD` (or with slashes), else null.
 * Impossible dates (`2020-02-30`, year 0) are null too; years past 9999 are kept so validation can refuse them.
 */
export function castDate(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const match = /^\s*(\d{4,})[-/](\d{1,2})[-/](\d{1,2})(?:[T\s].*)?$/.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const probe = new Date(Date.UTC(2000, month - 1, day));
  const leapSafe = month === 2 && day === 29 ? (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 : true;
  if (year < 1 || month < 1 || month > 12 || probe.getUTCMonth() !== month - 1 || !leapSafe) return null;
  return `${pad(match[1]!, 4)}-${pad(String(month), 2)}-${pad(String(day), 2)}`;
}

/** Compares `YYYY-MM-DD` dates of any year length. */
export function compareDates(a: string, b: string): number {
  const [ya, ...ra] = a.split('-');
  const [yb, ...rb] = b.split('-');
  const byYear = Number(ya) - Number(yb);
  return byYear !== 0 ? byYear : ra.join('-').localeCompare(rb.join('-'));
}

export interface MilestoneFields {
  title: string | undefined;
  description: string | null;
  startDate: string | null;
  dueDate: string | null;
}

/** Rails' error hash of a milestone, in GitLab's validation order; empty when valid. */
export function validateMilestone(fields: MilestoneFields, titleTaken: boolean): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (key: string, message: string) => (errors[key] ??= []).push(message);
  if (fields.title === undefined) add('title', "can't be blank");
  else if (longerThan(fields.title, TITLE_LIMIT)) add('title', tooLongMessage(TITLE_LIMIT));
  if (fields.description !== null && longerThan(fields.description, TEXT_LIMIT)) add('description', tooLongMessage(TEXT_LIMIT));
  if (fields.startDate && fields.dueDate && compareDates(fields.dueDate, fields.startDate) <= 0) add('due_date', 'must be greater than start date');
  if (fields.startDate && compareDates(fields.startDate, LAST_DAY) > 0) add('start_date', 'date must not be after 9999-12-31');
  if (fields.dueDate && compareDates(fields.dueDate, LAST_DAY) > 0) add('due_date', 'date must not be after 9999-12-31');
  if (titleTaken) add('title', 'already being used for another group or project milestone.');
  return errors;
}

/** Ruby's `Hash#inspect` of an error hash, as GitLab puts it in `Failed to create milestone …`. */
export function rubyInspect(errors: Record<string, string[]>): string {
  const entries = Object.entries(errors).map(([key, messages]) => `:${key}=>[${messages.map((m) => JSON.stringify(m)).join(', ')}]`);
  return `{${entries.join(', ')}}`;
}

/** Today as `YYYY-MM-DD` (UTC, as the server's `CURRENT_DATE`). */
export { today } from '@forgekit/kernel';

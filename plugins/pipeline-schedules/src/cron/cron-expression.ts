/**
 * Cron expressions as schedules accept them: five fields, or six with seconds first,
 * or one of the `@daily`-style shorthands; evaluated in the schedule's own zone.
 */
import { Cron } from 'croner';

const SHORTHANDS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@noon': '0 12 * * *',
  '@hourly': '0 * * * *',
};

/** The pattern to hand to the parser, or null for syntax the schedule parser refuses (`?`, `W`, year fields). */
function normalise(cron: string): string | null {
  const text = cron.trim();
  const shorthand = SHORTHANDS[text.toLowerCase()];
  if (shorthand) return shorthand;
  const fields = text.split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) return null;
  if (text.includes('?')) return null;
  const dayOfMonth = fields[fields.length - 3]!;
  if (/w/i.test(dayOfMonth)) return null;
  return fields.join(' ');
}

function parse(cron: string, zone: string): Cron | null {
  const pattern = normalise(cron);
  if (!pattern) return null;
  try {
    return new Cron(pattern, { paused: true, timezone: zone, mode: '5-or-6-parts' });
  } catch {
    return null;
  }
}

/** The first occurrence strictly after `after`, or null when the expression is invalid or never fires. */
export function nextOccurrence(cron: string, zone: string, after: Date): Date | null {
  return parse(cron, zone)?.nextRun(after) ?? null;
}

/** A cron line is valid when it parses and fires at some time (`0 0 31 2 *` never does). */
export function isValidCron(cron: string): boolean {
  return nextOccurrence(cron, 'UTC', new Date()) !== null;
}

import { apiError } from '@forgekit/kernel';
import { taken } from './validation-messages.js';

/** Constraint violations, as SQLite and PostgreSQL report them. */
const codeAndMessage = (error: unknown) => (error ?? {}) as { code?: string; message?: string };

export function isUniqueViolation(error: unknown): boolean {
  const { code, message } = codeAndMessage(error);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(message ?? '');
}

export function isForeignKeyViolation(error: unknown): boolean {
  const { code, message } = codeAndMessage(error);
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || /FOREIGN KEY constraint failed/.test(message ?? '');
}

/** Runs a save; a name a concurrent request took meanwhile reads as the usual validation error. */
export async function nameTakenOnConflict<T>(save: () => Promise<T>): Promise<T> {
  try {
    return await save();
  } catch (error) {
    if (isUniqueViolation(error)) throw apiError(400, [taken('Name')]);
    throw error;
  }
}

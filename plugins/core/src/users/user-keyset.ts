/**
 * Keyset pages of `GET /users`, ordered by `id`, `name` or `username`: the next page
 * starts after an opaque `cursor` (base64 JSON of the last row's sort value and id),
 * which clients only copy from the `rel="next"` link.
 */
import { frameworkError } from '@forgekit/kernel';
import type { Conditions } from '@forgekit/kernel/orm';
import type { User } from '../contracts.js';
import type { UserEntity } from '../entities/user.js';

export const KEYSET_ORDERS = ['id', 'name', 'username'] as const;
type KeysetOrder = (typeof KEYSET_ORDERS)[number];

interface Cursor {
  value: string | number;
  id: number;
}

export function keysetOrder(orderBy: string): KeysetOrder {
  if (!(KEYSET_ORDERS as readonly string[]).includes(orderBy)) throw frameworkError(405, 'Keyset pagination is not yet available for this type of request');
  return orderBy as KeysetOrder;
}

export function decodeCursor(cursor: string): Cursor {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<Cursor>;
    if (Number.isInteger(parsed.id) && (typeof parsed.value === 'string' || typeof parsed.value === 'number')) return parsed as Cursor;
  } catch {
    // reported below
  }
  throw frameworkError(400, 'cursor is invalid');
}

export const encodeCursor = (row: User, order: KeysetOrder) =>
  Buffer.from(JSON.stringify({ value: row[order], id: row.id } satisfies Cursor)).toString('base64url');

/** Rows strictly after the cursor in the list's order; ties on the sort value go by id. */
export function afterCursor(query: Conditions<Record<'', typeof UserEntity>, ''>, order: KeysetOrder, sort: string, cursor: Cursor) {
  const beyond = sort === 'asc' ? '>' : '<'; // any other value is the default, desc
  if (order === 'id') return query.where('id', beyond, cursor.id);
  return query.where((q) => q.where(order, beyond, cursor.value).orWhere((tie) => tie.where(order, cursor.value).where('id', beyond, cursor.id)));
}

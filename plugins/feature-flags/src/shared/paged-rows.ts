import { totalFor, type PageRequest } from '@forgekit/kernel';
import type { Knex } from '@forgekit/kernel/orm';

/** One page of a filtered query in the given order, with the total the pagination headers need. */
export async function pagedRows<T>(query: Knex.QueryBuilder, page: PageRequest, order: string[]): Promise<{ rows: T[]; total: number }> {
  const rows: T[] = await query
    .clone()
    .orderBy(order.map((column) => ({ column })))
    .limit(page.perPage)
    .offset(page.offset);
  const total = await totalFor(page, rows.length, async () => {
    const [counted] = await query.clone().count({ n: '*' });
    return Number((counted as { n: unknown }).n);
  });
  return { rows, total };
}

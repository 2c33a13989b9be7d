/** One page of runners from a filtered query over `ci_runners as r`, ordered by id. */
import { page, totalFor, type RequestContext } from '@forgekit/kernel';
import type { Knex } from '@forgekit/kernel/orm';
import type { RunnerPresenter } from './runner-presenter.js';
import type { RunnerRow } from './runner-row.js';

export function createRunnerList(presenter: RunnerPresenter) {
  return async function runnerPage(ctx: RequestContext, query: Knex.QueryBuilder) {
    const rows: RunnerRow[] = await query.clone().select('r.*').orderBy('r.id', 'asc').limit(ctx.page.perPage).offset(ctx.page.offset);
    const total = await totalFor(ctx.page, rows.length, async () => Number((await query.clone().count({ n: '*' }))[0]!.n));
    return page(await presenter.list(rows, ctx.externalUrl), total);
  };
}

export type RunnerPage = ReturnType<typeof createRunnerList>;

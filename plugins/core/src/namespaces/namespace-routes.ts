import { defineRoute, f, notFound, page, params, totalFor, type Route } from '@forgekit/kernel';
import type { Knex } from '@forgekit/kernel/orm';
import type { AccessService } from '../access/access-service.js';
import { AccessLevel } from '../shared/levels.js';
import { namespaceBasic } from '../shared/namespace-presenter.js';
import type { NamespaceRow } from '../shared/rows.js';

export function namespaceRoutes(db: Knex, access: AccessService): Route[] {
  const visible = (query: Knex.QueryBuilder, user: { id: number; isAdmin: boolean } & Record<string, any>) => {
    if (user.isAdmin) return query;
    return query.where((q) => {
      q.where((own) => own.where('n.kind', 'user').where('n.owner_id', user.id));
      q.orWhere((groups) => groups.where('n.kind', 'group').where((g) => access.visibleGroups(g as Knex.QueryBuilder, user as never, { membershipOnly: true })));
    });
  };

  const present = (row: NamespaceRow, externalUrl: string) => ({ ...namespaceBasic(row, externalUrl), members_count_with_descendants: null });

  return [
    defineRoute({
      method: 'GET',
      path: '/namespaces',
      paginated: true,
      input: params({ search: f.optional(f.string()), owned_only: f.optional(f.boolean()) }),
      async handler(ctx, input) {
        const query = db('namespaces as n');
        visible(query, ctx.user!);
        if (input.search) query.whereRaw('lower(n.path) like ?', [`%${input.search.toLowerCase()}%`]);
        if (input.owned_only && !ctx.user!.isAdmin) {
          query.where((q) => q.where('n.owner_id', ctx.user!.id).orWhere((g) => access.visibleGroups(g as Knex.QueryBuilder, ctx.user, { membershipOnly: true, minLevel: AccessLevel.OWNER })));
        }
        const rows: NamespaceRow[] = await query.clone().select('n.*').orderBy('n.id', 'asc').limit(ctx.page.perPage).offset(ctx.page.offset);
        const total = await totalFor(ctx.page, rows.length, async () => Number((await query.clone().count({ n: '*' }))[0]!.n));
        return page(rows.map((row) => present(row, ctx.externalUrl)), total);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/namespaces/:id/exists',
      input: params({ parent_id: f.optional(f.integer()) }),
      async handler(_ctx, input) {
        const path = _ctx.params.id!;
        const query = db('namespaces').whereRaw('lower(path) = ?', [path.toLowerCase()]);
        if (input.parent_id) query.where('parent_id', input.parent_id);
        else query.whereNull('parent_id');
        const exists = !!(await query.first('id'));
        const suggests: string[] = [];
        if (exists) {
          for (let n = 1; suggests.length === 0 && n < 100; n++) {
            const candidate = `${path}${n}`;
            const taken = await db('namespaces').whereRaw('lower(path) = ?', [candidate.toLowerCase()]).first('id');
            if (!taken) suggests.push(candidate);
          }
        }
        return { exists, suggests };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/namespaces/:id',
      async handler(ctx) {
        const id = ctx.params.id!;
        const query = db('namespaces as n');
        if (/^\d+$/.test(id)) query.where('n.id', Number(id));
        else query.whereRaw('lower(n.full_path) = ?', [id.toLowerCase()]);
        visible(query, ctx.user!);
        const row: NamespaceRow | undefined = await query.first('n.*');
        if (!row) throw notFound('Namespace');
        return present(row, ctx.externalUrl);
      },
    }),
  ];
}

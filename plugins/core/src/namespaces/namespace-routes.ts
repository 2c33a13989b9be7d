import { defineRoute, f, notFound, page, params, totalFor, type Database, type Principal, type Route } from '@forgekit/kernel';
import { containsText, recordId, type Knex } from '@forgekit/kernel/orm';
import type { VisibilityFilter } from '../access/access-service.js';
import { Member } from '../entities/member.js';
import { Namespace, type NamespaceRow } from '../entities/namespace.js';
import { AccessLevel } from '../shared/levels.js';
import { namespaceBasic } from '../shared/namespace-presenter.js';

const notFoundNamespace = (): never => {
  throw notFound('Namespace');
};

export function namespaceRoutes(database: Database, visibility: VisibilityFilter): Route[] {
  const taken = async (query: Knex.QueryBuilder) => (await database.legacy.count(query.limit(1))) > 0;
  const visible = (query: Knex.QueryBuilder, user: { id: number; isAdmin: boolean } & Record<string, any>) => {
    if (user.isAdmin) return query;
    return query.where((q) => {
      q.where((own) => own.where('n.kind', 'user').where('n.owner_id', user.id));
      q.orWhere((groups) => groups.where('n.kind', 'group').where((g) => visibility.groups(g as Knex.QueryBuilder, user as never, { membershipOnly: true })));
    });
  };

  /** Group owners (and admins) also see how many users belong to the group and its subgroups. */
  async function present(rows: NamespaceRow[], user: Principal, externalUrl: string) {
    const groups = rows.filter((row) => row.kind === 'group');
    const owned = new Set<number>();
    if (groups.length > 0 && !user.isAdmin) {
      const ofGroups = database.legacy
        .table(Namespace, 'n')
        .select('n.id')
        .whereIn(
          'n.id',
          groups.map((g) => g.id),
        );
      const owners = await database.legacy.rows(Namespace, visibility.groups(ofGroups, user, { membershipOnly: true, minLevel: AccessLevel.OWNER }));
      for (const { id } of owners) owned.add(id);
    }
    const counts = new Map<number, number>();
    for (const group of groups) {
      if (!user.isAdmin && !owned.has(group.id)) continue;
      const { n } = await database.legacy.totals<'n'>(
        database.legacy
          .table(Member, 'm')
          .join('namespaces as g', 'g.id', 'm.source_id')
          .where('m.source_type', 'Namespace')
          .where('g.traversal_path', 'like', `${group.traversal_path}%`)
          .countDistinct({ n: 'm.user_id' }),
      );
      counts.set(group.id, n ?? 0);
    }
    return rows.map((row) => {
      const body: Record<string, unknown> = namespaceBasic(row, externalUrl);
      if (counts.has(row.id)) body.members_count_with_descendants = counts.get(row.id);
      return body;
    });
  }

  return [
    defineRoute({
      method: 'GET',
      path: '/namespaces',
      paginated: true,
      input: params({ search: f.optional(f.string()), owned_only: f.optional(f.boolean()) }),
      async handler(ctx, input) {
        const query = database.legacy.from(Namespace, 'n');
        visible(query, ctx.user!);
        if (input.search) query.where(containsText(query, 'n.path', input.search));
        if (input.owned_only && !ctx.user!.isAdmin) {
          query.where((q) =>
            q
              .where('n.owner_id', ctx.user!.id)
              .orWhere((g) => visibility.groups(g as Knex.QueryBuilder, ctx.user, { membershipOnly: true, minLevel: AccessLevel.OWNER })),
          );
        }
        const rows = await database.legacy.rows(Namespace, query.clone().orderBy('n.id', 'asc').limit(ctx.page.perPage).offset(ctx.page.offset));
        const total = await totalFor(ctx.page, rows.length, () => database.legacy.count(query));
        return page(await present(rows, ctx.user!, ctx.externalUrl), total);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/namespaces/:id/exists',
      input: params({ parent_id: f.optional(f.id()) }),
      async handler(_ctx, input) {
        const path = _ctx.params.id!;
        const parentId = input.parent_id ? recordId(input.parent_id) : undefined;
        // No namespace sits under a parent id that no record can have.
        if (parentId === null) return { exists: false, suggests: [] };
        const query = database.legacy.table(Namespace).whereRaw('lower(path) = ?', [path.toLowerCase()]);
        if (parentId) query.where('parent_id', parentId);
        else query.whereNull('parent_id');
        const exists = await taken(query);
        const suggests: string[] = [];
        if (exists) {
          for (let n = 1; suggests.length === 0 && n < 100; n++) {
            const candidate = `${path}${n}`;
            if (!(await taken(database.legacy.table(Namespace).whereRaw('lower(path) = ?', [candidate.toLowerCase()])))) suggests.push(candidate);
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
        const query = database.legacy.from(Namespace, 'n');
        if (/^\d+$/.test(id)) query.where('n.id', recordId(id) ?? notFoundNamespace());
        else query.whereRaw('lower(n.full_path) = ?', [id.toLowerCase()]);
        visible(query, ctx.user!);
        const row = await database.legacy.row(Namespace, query);
        if (!row) throw notFound('Namespace');
        return (await present([row], ctx.user!, ctx.externalUrl))[0];
      },
    }),
  ];
}

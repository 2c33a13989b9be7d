import { defineRoute, f, notFound, page, params, totalFor, type Database, type Principal, type Route } from '@forgekit/kernel';
import { recordId, type Conditions, type Query } from '@forgekit/kernel/orm';
import type { VisibilityFilter } from '../access/access-service.js';
import type { Namespace } from '../contracts.js';
import { MemberEntity } from '../entities/member.js';
import { NamespaceEntity } from '../entities/namespace.js';
import { AccessLevel } from '../shared/levels.js';
import { namespaceBasic } from '../shared/namespace-presenter.js';
import { namespaceExistsSchema, namespaceSchema } from './namespace-schemas.js';

const notFoundNamespace = (): never => {
  throw notFound('Namespace');
};

export function namespaceRoutes(database: Database, visibility: VisibilityFilter): Route[] {
  const taken = async (query: Query<any, any>) => (await database.count(query.limit(1))) > 0;
  const visible = <Q extends Conditions<{ n: typeof NamespaceEntity }, 'n'>>(query: Q, user: Principal) => {
    if (user.isAdmin) return query;
    return query.where((q) => {
      q.where((own) => own.where('n.kind', 'user').where('n.ownerId', user.id));
      q.orWhere((groups) => groups.where('n.kind', 'group').where((g) => visibility.groups(g, user, { membershipOnly: true })));
    });
  };

  /** Group owners (and admins) also see how many users belong to the group and its subgroups. */
  async function present(rows: Namespace[], user: Principal, externalUrl: string) {
    const groups = rows.filter((row) => row.kind === 'group');
    const owned = new Set<number>();
    if (groups.length > 0 && !user.isAdmin) {
      const ofGroups = database
        .table(NamespaceEntity, 'n')
        .select('n.id')
        .whereIn(
          'n.id',
          groups.map((g) => g.id),
        );
      const owners = await database.rows(visibility.groups(ofGroups, user, { membershipOnly: true, minLevel: AccessLevel.OWNER }));
      for (const { id } of owners) owned.add(id);
    }
    const counts = new Map<number, number>();
    for (const group of groups) {
      if (!user.isAdmin && !owned.has(group.id)) continue;
      const { n } = await database.totals<'n'>(
        database
          .table(MemberEntity, 'm')
          .join(NamespaceEntity, 'g', 'g.id', 'm.sourceId')
          .where('m.sourceType', 'Namespace')
          .whereStartsWith('g.traversalPath', group.traversalPath)
          .countDistinct({ n: 'm.userId' }),
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
      response: { schema: namespaceSchema },
      input: params({ search: f.optional(f.string()), owned_only: f.optional(f.boolean()) }),
      async handler(ctx, input) {
        const query = visible(database.from(NamespaceEntity, 'n'), ctx.user);
        if (input.search) query.whereContains(['n.path'], input.search);
        if (input.owned_only && !ctx.user.isAdmin) {
          query.where((q) =>
            q.where('n.ownerId', ctx.user.id).orWhere((g) => visibility.groups(g, ctx.user, { membershipOnly: true, minLevel: AccessLevel.OWNER })),
          );
        }
        const rows = await database.rows(query.clone().orderBy('n.id', 'asc').limit(ctx.page.perPage).offset(ctx.page.offset));
        const total = await totalFor(ctx.page, rows.length, () => database.count(query));
        return page(await present(rows as Namespace[], ctx.user, ctx.externalUrl), total);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/namespaces/:id/exists',
      response: { schema: namespaceExistsSchema },
      input: params({ parent_id: f.optional(f.id()) }),
      async handler(ctx, input) {
        const path = ctx.params.id;
        const parentId = input.parent_id ? recordId(input.parent_id) : undefined;
        // No namespace sits under a parent id that no record can have.
        if (parentId === null) return { exists: false, suggests: [] };
        const query = database.table(NamespaceEntity).whereIgnoringCase('path', path);
        if (parentId) query.where('parentId', parentId);
        else query.whereNull('parentId');
        const exists = await taken(query);
        const suggests: string[] = [];
        if (exists) {
          for (let n = 1; suggests.length === 0 && n < 100; n++) {
            const candidate = `${path}${n}`;
            if (!(await taken(database.table(NamespaceEntity).whereIgnoringCase('path', candidate)))) suggests.push(candidate);
          }
        }
        return { exists, suggests };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/namespaces/:id',
      response: { schema: namespaceSchema },
      async handler(ctx) {
        const id = ctx.params.id;
        const query = database.from(NamespaceEntity, 'n');
        if (/^\d+$/.test(id)) query.where('n.id', recordId(id) ?? notFoundNamespace());
        else query.whereIgnoringCase('n.fullPath', id);
        visible(query, ctx.user);
        const row = (await database.row(query)) as Namespace | undefined;
        if (!row) throw notFound('Namespace');
        return (await present([row], ctx.user, ctx.externalUrl))[0];
      },
    }),
  ];
}

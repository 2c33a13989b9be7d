/**
 * `/projects/:id/protected_branches`: list (with `search`), show, protect, update and
 * unprotect branches and `*` patterns. Anyone who may read the code reads them;
 * Maintainers change them.
 */
import * as v from 'valibot';
import {
  checkUnmodifiedSince,
  conflict,
  defineRoute,
  f,
  frameworkError,
  noContent,
  page,
  params,
  recordNotFound,
  totalFor,
  unprocessable,
  type RequestContext,
  type Route,
} from '@forgekit/kernel';
import { AccessLevel, ARCHIVED_PROJECT_GUARD, type AccessService } from '@forgekit/plugin-core/contracts';
import type { ProjectRepositories } from '../shared/project-repository.js';
import { PROTECTION_ACCESS_LEVELS } from './branch-policy.js';
import { protectedBranchEntity } from './protected-branch-presenter.js';
import { protectedBranchSchema } from './protected-branch-schemas.js';
import {
  PROTECTION_ACTIONS,
  type ProtectedBranch,
  type ProtectedBranchChange,
  type ProtectedBranchStore,
  type ProtectionAction,
} from './protected-branch-store.js';

/** One entry of `allowed_to_push` / `allowed_to_merge` / `allowed_to_unprotect`. */
interface AllowedEntry {
  id?: number;
  accessLevel?: number;
  destroy: boolean;
}

const LEVELS = PROTECTION_ACCESS_LEVELS as unknown as number[];
const levelField = () => f.values(LEVELS, f.integer());

/**
 * An `allowed_to_*` array (JSON, or `x[][access_level]=30` in a form). Role entries
 * (`access_level`) are kept; user, group and deploy key entries need features this
 * server does not have and are left out, as GitLab's free edition leaves them out.
 */
function allowedField() {
  return v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const value = dataset.value;
      const list = Array.isArray(value)
        ? value
        : typeof value === 'object' && value !== null && Object.keys(value).every((key) => /^\d+$/.test(key))
          ? Object.values(value)
          : null;
      if (!list) {
        addIssue({ message: 'is invalid' });
        return NEVER;
      }
      const entries: AllowedEntry[] = [];
      let failed = false;
      list.forEach((raw, index) => {
        const entry = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
        const fail = (key: string, message: string) => {
          failed = true;
          addIssue({
            message,
            path: [
              { type: 'array', origin: 'value', input: list, key: index, value: raw },
              { type: 'object', origin: 'value', input: entry, key, value: entry[key] },
            ] as never,
          });
        };
        const parsed: AllowedEntry = { destroy: false };
        if (entry.access_level !== undefined && entry.access_level !== null) {
          const level = v.safeParse(levelField(), entry.access_level);
          if (level.success) parsed.accessLevel = level.output;
          else fail('access_level', 'does not have a valid value');
        }
        if (entry.id !== undefined && entry.id !== null) {
          const id = v.safeParse(f.id(), entry.id);
          if (id.success) parsed.id = id.output;
          else fail('id', 'is invalid');
        }
        if (entry._destroy !== undefined && entry._destroy !== null) {
          const destroy = v.safeParse(f.boolean(), entry._destroy);
          if (destroy.success) parsed.destroy = destroy.output;
          else fail('_destroy', 'is invalid');
        }
        entries.push(parsed);
      });
      return failed ? NEVER : entries;
    }),
  ) as v.GenericSchema<unknown, AllowedEntry[]>;
}

const allowedFields = {
  allowed_to_push: f.optional(allowedField()),
  allowed_to_merge: f.optional(allowedField()),
  allowed_to_unprotect: f.optional(allowedField()),
};

const allowedOf = (input: object, action: ProtectionAction) =>
  ((input as Record<string, unknown>)[`allowed_to_${action}`] as AllowedEntry[] | null | undefined) ?? [];

/** `Push access levels`, as GitLab names a protected branch's association in its errors. */
const associationName = (action: ProtectionAction) => `${action[0]!.toUpperCase()}${action.slice(1)} access levels`;

export function protectedBranchRoutes(deps: { store: ProtectedBranchStore; access: AccessService; projectRepos: ProjectRepositories }): Route[] {
  const { store, access, projectRepos } = deps;
  const base = '/projects/:id/protected_branches';

  const maintainer = (ctx: RequestContext) => access.requireProject(ctx.user, ctx.params.id!, AccessLevel.MAINTAINER);

  async function existing(projectId: number, name: string): Promise<ProtectedBranch> {
    const branch = await store.find(projectId, name);
    if (!branch) throw recordNotFound();
    return branch;
  }

  return [
    defineRoute({
      method: 'GET',
      path: base,
      auth: 'optional',
      paginated: true,
      response: { schema: protectedBranchSchema },
      input: params({ search: f.optional(f.string()) }),
      async handler(ctx, input) {
        const { access: projectAccess } = await projectRepos.forRead(ctx);
        const projectId = projectAccess.project.id;
        const items = await store.page(projectId, input.search, ctx.page.perPage, ctx.page.offset);
        const total = await totalFor(ctx.page, items.length, () => store.count(projectId, input.search));
        return page(items.map(protectedBranchEntity), total);
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${base}/:name`,
      auth: 'optional',
      response: { schema: protectedBranchSchema },
      async handler(ctx) {
        const { access: projectAccess } = await projectRepos.forRead(ctx);
        return protectedBranchEntity(await existing(projectAccess.project.id, ctx.params.name!));
      },
    }),
    defineRoute({
      method: 'POST',
      path: base,
      response: { schema: protectedBranchSchema, errors: [409, 422] },
      exemptFrom: [ARCHIVED_PROJECT_GUARD],
      before: maintainer,
      input: params({
        name: f.string(),
        push_access_level: f.optional(levelField()),
        merge_access_level: f.optional(levelField()),
        unprotect_access_level: f.optional(levelField()),
        allow_force_push: f.optional(f.boolean(), false),
        code_owner_approval_required: f.optional(f.boolean(), false),
        ...allowedFields,
      }),
      async handler(_ctx, input, projectAccess) {
        const projectId = projectAccess.project.id;
        if (await store.find(projectId, input.name)) throw conflict(`Protected branch '${input.name}' already exists`);
        if (input.name.trim() === '') throw unprocessable(["Name can't be blank"]);
        const levels = Object.fromEntries(
          PROTECTION_ACTIONS.map((action) => {
            const given = [(input as Record<string, unknown>)[`${action}_access_level`], ...allowedOf(input, action).map((entry) => entry.accessLevel)].filter(
              (level): level is number => typeof level === 'number',
            );
            // Maintainers, unless the request names who may.
            return [action, given.length > 0 ? [...new Set(given)] : [AccessLevel.MAINTAINER]];
          }),
        ) as Record<ProtectionAction, number[]>;
        const created = await store.create(projectId, {
          name: input.name,
          allowForcePush: !!input.allow_force_push,
          codeOwnerApprovalRequired: !!input.code_owner_approval_required,
          levels,
        });
        if (!created) throw conflict(`Protected branch '${input.name}' already exists`);
        return protectedBranchEntity(created);
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: `${base}/:name`,
      response: { schema: protectedBranchSchema, errors: [422] },
      exemptFrom: [ARCHIVED_PROJECT_GUARD],
      before: maintainer,
      input: params({
        allow_force_push: f.optional(f.boolean()),
        code_owner_approval_required: f.optional(f.boolean()),
        ...allowedFields,
      }),
      async handler(ctx, input, projectAccess) {
        const branch = await existing(projectAccess.project.id, ctx.params.name!);
        if (input.allow_force_push === null) throw frameworkError(400, 'allow_force_push is empty');
        const change: ProtectedBranchChange = {
          allowForcePush: input.allow_force_push ?? undefined,
          codeOwnerApprovalRequired: input.code_owner_approval_required ?? undefined,
          add: [],
          change: [],
          remove: [],
        };
        for (const action of PROTECTION_ACTIONS) {
          const levels = new Set(branch.rules[action].map((rule) => rule.accessLevel));
          for (const entry of allowedOf(input, action)) {
            const rule = entry.id === undefined ? undefined : branch.rules[action].find((candidate) => candidate.id === entry.id);
            if (rule && entry.destroy) {
              change.remove!.push(rule.id);
              levels.delete(rule.accessLevel);
            } else if (rule && entry.accessLevel !== undefined) {
              change.change!.push({ id: rule.id, accessLevel: entry.accessLevel });
            } else if (entry.id === undefined && entry.accessLevel !== undefined) {
              if (levels.has(entry.accessLevel)) throw unprocessable([`${associationName(action)} access level has already been taken`]);
              levels.add(entry.accessLevel);
              change.add!.push({ action, accessLevel: entry.accessLevel });
            }
          }
        }
        return protectedBranchEntity(await store.update(branch, change));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: `${base}/:name`,
      response: { status: 204, errors: [412] },
      exemptFrom: [ARCHIVED_PROJECT_GUARD],
      before: maintainer,
      async handler(ctx, _input, projectAccess) {
        const branch = await existing(projectAccess.project.id, ctx.params.name!);
        // GitLab's `destroy_conditionally!`: refused when the rule changed after the client looked.
        checkUnmodifiedSince(ctx.header('if-unmodified-since'), branch.updatedAt);
        await store.remove(branch.id);
        return noContent();
      },
    }),
  ];
}

/**
 * One service for project, group and instance variables: lookups with GitLab's
 * ambiguity rule, and create/update with its validations and the plan limit.
 */
import { checkUnmodifiedSince, conflict, notFound, patchFrom, validationFailed } from '@forgekit/kernel';
import type { PlanLimitsService } from '@forgekit/plugin-plan-limits/contracts';
import { KIND_RULES, type Owner } from './owner-kinds.js';
import { validateVariable, type Variable, type VariableType } from './variable-rules.js';
import type { StoredVariable, VariableStore } from './variable-store.js';

const AMBIGUOUS_MESSAGE = "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'";

/** What a create or update request sent; undefined is "not sent", null is "sent empty". */
export interface VariableInput {
  key?: string;
  value?: string | null;
  variable_type?: VariableType | null;
  protected?: boolean | null;
  masked?: boolean | null;
  raw?: boolean | null;
  masked_and_hidden?: boolean | null;
  environment_scope?: string | null;
  description?: string | null;
}

const DEFAULTS: Omit<Variable, 'key' | 'value'> = {
  variableType: 'env_var',
  protected: false,
  masked: false,
  hidden: false,
  raw: false,
  environmentScope: '*',
  description: null,
};

/** The request's changes over `base`: keys and scopes are stripped, as GitLab's setters do. */
function applyInput(base: Variable, input: VariableInput): Variable {
  const changes = patchFrom<Variable, VariableInput>(input, {
    value: { to: 'value', as: (value) => value ?? base.value },
    variable_type: { to: 'variableType', as: (type) => type || base.variableType },
    protected: { to: 'protected', as: (value) => value ?? false },
    masked: 'masked',
    raw: { to: 'raw', as: (value) => value ?? false },
    environment_scope: { to: 'environmentScope', as: (scope) => (scope ?? '').trim() },
    description: 'description',
  });
  return { ...base, ...changes };
}

export function createVariableService(store: VariableStore, limits: PlanLimitsService) {
  /** The one variable `key` names, or 404; 409 when several scopes share the key and no filter picks one. */
  async function find(owner: Owner, key: string, scope?: string | null, options: { pickFirst?: boolean } = {}): Promise<StoredVariable> {
    const rules = KIND_RULES[owner.kind];
    const filter = rules.scoped && scope ? scope : undefined;
    const found = await store.findByKey(owner, key, filter);
    if (found.length === 0) throw notFound(rules.notFound);
    if (found.length > 1 && !options.pickFirst) throw conflict(AMBIGUOUS_MESSAGE);
    return found[0]!;
  }

  async function create(owner: Owner, input: VariableInput & { key: string; value: string }): Promise<StoredVariable> {
    const rules = KIND_RULES[owner.kind];
    let variable = applyInput({ ...DEFAULTS, key: input.key.trim(), value: input.value }, input);
    if (rules.scoped && input.masked_and_hidden) variable = { ...variable, masked: true, hidden: true };
    if (!rules.scoped) variable.environmentScope = '*';
    const limit = await limits.get(rules.limit);

    const errors = validateVariable(rules, variable, { taken: false });
    const stored = errors.empty ? await store.insert(owner, variable, limit) : await store.occupancy(owner, variable.key, variable.environmentScope);
    if ('id' in stored) return stored;

    // Not inserted: everything GitLab would report, the limit and a taken key included.
    const limitReached = limit > 0 && stored.count >= limit ? { name: rules.limit, limit } : undefined;
    const all = validateVariable(rules, variable, { taken: stored.taken, limitReached });
    if (all.empty) throw conflict(); // Raced with a delete; the caller may retry.
    throw validationFailed(all.toJSON());
  }

  async function update(owner: Owner, previous: StoredVariable, input: VariableInput): Promise<StoredVariable> {
    const rules = KIND_RULES[owner.kind];
    const next = applyInput(previous as Variable, rules.scoped ? input : { ...input, environment_scope: undefined });
    const errors = validateVariable(rules, next, { previous, taken: false });
    if (errors.empty) {
      const updated = await store.update(previous, next);
      if (updated) return updated;
    }
    const { taken } = await store.occupancy(owner, next.key, next.environmentScope, previous.id);
    const all = validateVariable(rules, next, { previous, taken });
    if (all.empty) throw conflict();
    throw validationFailed(all.toJSON());
  }

  return {
    find,
    create,
    update,
    async remove(owner: Owner, variable: StoredVariable, unmodifiedSince?: string) {
      if (KIND_RULES[owner.kind].conditionalDelete) checkUnmodifiedSince(unmodifiedSince, variable.updatedAt);
      await store.remove(variable.id);
    },
    list: (owner: Owner, limit: number, offset: number) => store.list(owner, limit, offset),
    count: (owner: Owner) => store.count(owner),
    removeAllOf: (owner: Owner) => store.removeAllOf(owner),
  };
}

export type VariableService = ReturnType<typeof createVariableService>;

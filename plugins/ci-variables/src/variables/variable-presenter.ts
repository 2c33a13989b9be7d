import { KIND_RULES, type OwnerKind } from './owner-kinds.js';
import type { Variable } from './variable-rules.js';

/** GitLab's `Ci::Variable` entity; a hidden variable's value is never shown again. */
export function presentVariable(kind: OwnerKind, variable: Variable) {
  const base = { variable_type: variable.variableType, key: variable.key, value: variable.hidden ? null : variable.value };
  const flags = { protected: variable.protected, masked: variable.masked, raw: variable.raw };
  if (!KIND_RULES[kind].scoped) return { ...base, ...flags, description: variable.description };
  return { ...base, hidden: variable.hidden, ...flags, environment_scope: variable.environmentScope, description: variable.description };
}

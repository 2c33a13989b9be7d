/**
 * A flag as a create or update request leaves it, before it is saved, and its
 * validation: GitLab's model rules with its full messages, nested strategy and scope
 * errors first (prefixed `Strategies ...`), then the flag's own.
 */
import { ENVIRONMENT_SCOPE_MESSAGE, validEnvironmentScope } from '../shared/environment-scope.js';
import type { FeatureFlagUserListRow } from '../entities/feature-flag-user-list.js';
import { blank, charLength, isBlank, longerThan, taken, tooLong, tooShort, unique } from '../shared/validation-messages.js';
import { isStrategyName, parameterErrors, USER_LIST_STRATEGY } from './strategy-rules.js';

export interface ScopeDraft {
  id: number | null;
  environmentScope: string | null;
  destroyed: boolean;
  changed: boolean;
}

export interface StrategyDraft {
  id: number | null;
  name: string | null;
  parameters: unknown;
  userList: FeatureFlagUserListRow | null;
  scopes: ScopeDraft[];
  destroyed: boolean;
  changed: boolean;
}

export interface FlagDraft {
  name: string | null;
  description: string | null;
  active: boolean;
  strategies: StrategyDraft[];
}

const NAME_FORMAT = /^[a-z]([-_a-z0-9]*[a-z0-9])?$/;
const NAME_LIMIT = 63;
const DESCRIPTION_LIMIT = 255;
/** The width of GitLab's `environment_scope` column for strategy scopes. */
const SCOPE_LIMIT = 255;
const NAME_FORMAT_MESSAGE = "can contain only lowercase letters, digits, '_' and '-'. Must start with a letter, and cannot end with '-' or '_'";

function strategyMessages(strategy: StrategyDraft, projectId: number): string[] {
  const messages: string[] = [];
  for (const scope of strategy.scopes.filter((s) => !s.destroyed)) {
    const value = scope.environmentScope ?? '';
    if (isBlank(value)) messages.push(blank('Strategies scopes environment scope'));
    if (!validEnvironmentScope(value)) messages.push(`Strategies scopes environment scope ${ENVIRONMENT_SCOPE_MESSAGE}`);
    if (longerThan(value, SCOPE_LIMIT)) messages.push(tooLong('Strategies scopes environment scope', SCOPE_LIMIT));
  }
  if (!isStrategyName(strategy.name)) messages.push('Strategies name strategy name is invalid');
  else for (const message of parameterErrors(strategy.name, strategy.parameters)) messages.push(`Strategies parameters ${message}`);
  const usesList = strategy.name === USER_LIST_STRATEGY;
  if (usesList && !strategy.userList) messages.push(blank('Strategies user list'));
  if (!usesList && strategy.userList) messages.push('Strategies user list must be blank');
  if (strategy.userList && strategy.userList.projectId !== projectId) messages.push('Strategies user list must belong to the same project');
  return messages;
}

/** Every failed rule as a full message; empty when the draft may be saved. */
export function flagMessages(draft: FlagDraft, projectId: number, nameTaken: boolean): string[] {
  const messages = draft.strategies.filter((s) => !s.destroyed).flatMap((s) => strategyMessages(s, projectId));
  const name = draft.name ?? '';
  if (isBlank(name)) messages.push(blank('Name'));
  if (charLength(name) < 2) messages.push(tooShort('Name', 2));
  if (longerThan(name, NAME_LIMIT)) messages.push(tooLong('Name', NAME_LIMIT));
  if (!NAME_FORMAT.test(name)) messages.push(`Name ${NAME_FORMAT_MESSAGE}`);
  if (nameTaken) messages.push(taken('Name'));
  if (draft.description !== null && longerThan(draft.description, DESCRIPTION_LIMIT)) messages.push(tooLong('Description', DESCRIPTION_LIMIT));
  return unique(messages);
}

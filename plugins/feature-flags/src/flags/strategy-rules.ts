/** Strategy names, their parameter sets and value rules, with GitLab's error texts. */
import { longerThan, TEXT_LIMIT, tooLongMessage } from '@forgekit/kernel';
import { userXidsMessage, validUserXids } from '../shared/user-xids.js';

export const USER_LIST_STRATEGY = 'serviceUserList';

/** Each strategy's exact parameter keys. */
export const STRATEGY_PARAMETERS: Readonly<Record<string, readonly string[]>> = {
  default: [],
  [USER_LIST_STRATEGY]: [],
  gradualRolloutUserId: ['groupId', 'percentage'],
  flexibleRollout: ['groupId', 'rollout', 'stickiness'],
  userWithId: ['userIds'],
};

export const STICKINESS_VALUES = ['default', 'userId', 'sessionId', 'random'] as const;

export const isStrategyName = (name: unknown): name is string => typeof name === 'string' && Object.hasOwn(STRATEGY_PARAMETERS, name);

const isHash = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A string of digits between min and max. Numbers are not accepted. */
const digitsWithin = (value: unknown, min: number, max: number) =>
  typeof value === 'string' && /^\d+$/.test(value) && Number(value) >= min && Number(value) <= max;

const validGroupId = (value: unknown) => typeof value === 'string' && /^[a-z]{1,32}$/.test(value);

/** Ruby's `to_sentence(last_word_connector: ', or ')`. */
const STICKINESS_SENTENCE = `${STICKINESS_VALUES.slice(0, -1).join(', ')}, or ${STICKINESS_VALUES.at(-1)}`;

/** Messages on `parameters` for a strategy whose name is valid, in GitLab's order. */
export function parameterErrors(name: string, parameters: unknown): string[] {
  if (!isHash(parameters)) return ['parameters are invalid'];
  const expected = [...STRATEGY_PARAMETERS[name]!].sort();
  const actual = Object.keys(parameters).sort();
  if (expected.length !== actual.length || expected.some((key, index) => key !== actual[index])) return ['parameters are invalid'];
  const errors: string[] = [];
  switch (name) {
    case 'gradualRolloutUserId':
      if (!digitsWithin(parameters.percentage, 0, 100)) errors.push('percentage must be a string between 0 and 100 inclusive');
      if (!validGroupId(parameters.groupId)) errors.push('groupId parameter is invalid');
      break;
    case 'flexibleRollout':
      if (!(STICKINESS_VALUES as readonly unknown[]).includes(parameters.stickiness)) errors.push(`stickiness parameter must be ${STICKINESS_SENTENCE}`);
      if (!validGroupId(parameters.groupId)) errors.push('groupId parameter is invalid');
      if (!digitsWithin(parameters.rollout, 0, 100)) errors.push('rollout must be a string between 0 and 100 inclusive');
      break;
    case 'userWithId':
      if (!validUserXids(parameters.userIds)) errors.push(userXidsMessage('userIds'));
      break;
  }
  // GitLab keeps parameters of any size; the product bounds their JSON.
  if (longerThan(JSON.stringify(parameters), TEXT_LIMIT)) errors.push(tooLongMessage(TEXT_LIMIT));
  return errors;
}

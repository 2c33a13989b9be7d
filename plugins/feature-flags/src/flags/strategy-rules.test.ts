import { describe, expect, it } from 'vitest';
import { isStrategyName, parameterErrors } from './strategy-rules.js';

describe('strategy parameters', () => {
  it('knows the five strategy names and nothing else', () => {
    for (const name of ['default', 'serviceUserList', 'gradualRolloutUserId', 'flexibleRollout', 'userWithId']) expect(isStrategyName(name)).toBe(true);
    for (const name of ['gitlabUserList', 'remoteAddress', '', null, 'toString']) expect(isStrategyName(name)).toBe(false);
  });

  it('wants exactly the declared keys in a hash', () => {
    expect(parameterErrors('default', {})).toEqual([]);
    expect(parameterErrors('serviceUserList', {})).toEqual([]);
    expect(parameterErrors('default', { extra: '1' })).toEqual(['parameters are invalid']);
    expect(parameterErrors('default', null)).toEqual(['parameters are invalid']);
    expect(parameterErrors('default', [{}])).toEqual(['parameters are invalid']);
    expect(parameterErrors('gradualRolloutUserId', { groupId: 'default' })).toEqual(['parameters are invalid']);
    expect(parameterErrors('userWithId', { userIds: 'a', more: 'b' })).toEqual(['parameters are invalid']);
  });

  it('checks gradual rollouts: percentage as a digit string 0..100, a lower-case groupId', () => {
    expect(parameterErrors('gradualRolloutUserId', { groupId: 'default', percentage: '0' })).toEqual([]);
    expect(parameterErrors('gradualRolloutUserId', { groupId: 'a'.repeat(32), percentage: '100' })).toEqual([]);
    expect(parameterErrors('gradualRolloutUserId', { groupId: 'default', percentage: 50 })).toEqual([
      'percentage must be a string between 0 and 100 inclusive',
    ]);
    expect(parameterErrors('gradualRolloutUserId', { groupId: 'default', percentage: '101' })).toEqual([
      'percentage must be a string between 0 and 100 inclusive',
    ]);
    expect(parameterErrors('gradualRolloutUserId', { groupId: 'default', percentage: '-1' })).toEqual([
      'percentage must be a string between 0 and 100 inclusive',
    ]);
    expect(parameterErrors('gradualRolloutUserId', { groupId: 'a'.repeat(33), percentage: '5' })).toEqual(['groupId parameter is invalid']);
    expect(parameterErrors('gradualRolloutUserId', { groupId: 'Default', percentage: '5.5' })).toEqual([
      'percentage must be a string between 0 and 100 inclusive',
      'groupId parameter is invalid',
    ]);
  });

  it('checks flexible rollouts: stickiness, groupId, rollout in that order', () => {
    expect(parameterErrors('flexibleRollout', { groupId: 'default', rollout: '50', stickiness: 'sessionId' })).toEqual([]);
    expect(parameterErrors('flexibleRollout', { groupId: '', rollout: '', stickiness: 'user' })).toEqual([
      'stickiness parameter must be default, userId, sessionId, or random',
      'groupId parameter is invalid',
      'rollout must be a string between 0 and 100 inclusive',
    ]);
  });

  it('checks user ids of userWithId', () => {
    expect(parameterErrors('userWithId', { userIds: 'user1,user2' })).toEqual([]);
    expect(parameterErrors('userWithId', { userIds: 'user1,user1' })).toEqual([
      'userIds must be a string of unique comma separated values each 256 characters or less',
    ]);
    expect(parameterErrors('userWithId', { userIds: 7 })).toEqual(['userIds must be a string of unique comma separated values each 256 characters or less']);
  });
});

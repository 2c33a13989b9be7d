import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { tooManyRequests } from '../http/errors.js';

export interface RateLimit {
  points: number;
  durationSeconds: number;
}

/** Counts requests per key and throws GitLab's 429 when a limit is used up. */
export interface RateLimitService {
  consume(key: string, limit: RateLimit): Promise<void>;
}

type LimiterFactory = (limit: RateLimit, keyPrefix: string) => RateLimiterAbstract;

export function createRateLimitService(factory: LimiterFactory): RateLimitService {
  const limiters = new Map<string, RateLimiterAbstract>();
  return {
    async consume(key, limit) {
      const id = `${limit.points}/${limit.durationSeconds}`;
      let limiter = limiters.get(id);
      if (!limiter) {
        limiter = factory(limit, `rl${limit.points}_${limit.durationSeconds}`);
        limiters.set(id, limiter);
      }
      try {
        await limiter.consume(key);
      } catch (result) {
        if (result instanceof RateLimiterRes) throw tooManyRequests(Math.max(1, Math.ceil(result.msBeforeNext / 1000)));
        throw result;
      }
    },
  };
}

export const memoryRateLimits = () =>
  createRateLimitService((limit, keyPrefix) => new RateLimiterMemory({ points: limit.points, duration: limit.durationSeconds, keyPrefix }));

/** Shared counters in the `rate_limits` table, created by the kernel's own migration. */
export const postgresRateLimits = (knex: unknown) =>
  createRateLimitService(
    (limit, keyPrefix) =>
      new RateLimiterPostgres({
        storeClient: knex,
        storeType: 'knex',
        tableName: 'rate_limits',
        tableCreated: true,
        points: limit.points,
        duration: limit.durationSeconds,
        keyPrefix,
      }),
  );

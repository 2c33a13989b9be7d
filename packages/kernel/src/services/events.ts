import type { Logger } from './logger.js';

export type EventHandler<P = unknown> = (payload: P) => void | Promise<void>;

/**
 * Domain events (`<resource>.<past-tense>`, payloads carry ids). Handlers run after
 * the emitting request's work, in this process; a failing handler is logged, not thrown.
 */
export interface EventBus {
  on<P = unknown>(name: string, handler: EventHandler<P>): void;
  emit<P = unknown>(name: string, payload: P): Promise<void>;
}

export function createEventBus(log: Logger): EventBus {
  const handlers = new Map<string, EventHandler<any>[]>();
  return {
    on(name, handler) {
      handlers.set(name, [...(handlers.get(name) ?? []), handler]);
    },
    async emit(name, payload) {
      for (const handler of handlers.get(name) ?? []) {
        try {
          await handler(payload);
        } catch (error) {
          log.error({ err: error, event: name }, 'event handler failed');
        }
      }
    },
  };
}

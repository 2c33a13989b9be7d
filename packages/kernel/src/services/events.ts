import { inject, injectable } from '../plugin/registry.js';
import { kernelTokens } from '../plugin/kernel-tokens.js';
import type { Logger } from './logger.js';

export type EventHandler<P = unknown> = (payload: P) => void | Promise<void>;

/**
 * A domain event a plugin emits (`<resource>.<past-tense>`), with its payload type.
 * The emitting plugin exports its descriptors from its contracts entry; listeners import
 * them, so both sides agree on the payload.
 */
export interface EventDescriptor<P> {
  readonly name: string;
  /** Carries the payload type; never set at run time. */
  readonly payload?: P;
}

export const defineEvent = <P>(name: string): EventDescriptor<P> => Object.freeze({ name });

/**
 * Domain events, whose payloads carry ids. Handlers run after the emitting request's
 * work, in this process; a failing handler is logged, not thrown.
 */
export interface EventBus {
  on<P>(event: EventDescriptor<P> | string, handler: EventHandler<P>): void;
  emit<P>(event: EventDescriptor<P> | string, payload: P): Promise<void>;
}

const nameOf = (event: EventDescriptor<unknown> | string) => (typeof event === 'string' ? event : event.name);

/** Events within this process, in the order handlers were added. */
@injectable()
export class InProcessEventBus implements EventBus {
  private readonly handlers = new Map<string, EventHandler<any>[]>();

  constructor(@inject(kernelTokens.logger) private readonly log: Logger) {}

  on<P>(event: EventDescriptor<P> | string, handler: EventHandler<P>) {
    const name = nameOf(event);
    this.handlers.set(name, [...(this.handlers.get(name) ?? []), handler]);
  }

  async emit<P>(event: EventDescriptor<P> | string, payload: P) {
    const name = nameOf(event);
    for (const handler of this.handlers.get(name) ?? []) {
      try {
        await handler(payload);
      } catch (error) {
        this.log.error({ err: error, event: name }, 'event handler failed');
      }
    }
  }
}

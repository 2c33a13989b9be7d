/** The SQL statements a request runs, for tests that hold a path to its statement budget. */
import type { Kernel } from '@forgekit/kernel';

export interface StatementLog {
  /** Runs `request` and answers the SQL of every statement it ran, in order. */
  during(request: () => Promise<unknown>): Promise<string[]>;
  stop(): void;
}

/**
 * The token's last-use stamp is written at most once a minute, after the answer, and an
 * earlier request's stamp may still be on its way: bookkeeping, not a statement of the request.
 */
const TOKEN_LAST_USE = /^update .personal_access_tokens./;

/** Records every statement: prepared reads, writes and transactions. */
export function recordStatements(kernel: Kernel): StatementLog {
  const statements: string[] = [];
  const stopObserving = kernel.database.observeStatements((sql) => statements.push(sql));
  return {
    async during(request) {
      statements.length = 0;
      await request();
      return statements.filter((sql) => !TOKEN_LAST_USE.test(sql));
    },
    stop: stopObserving,
  };
}

/** The SQL of every statement `kernel` runs while `run` does (the token's last-use stamp left out). */
export async function statementsDuring(kernel: Kernel, run: () => Promise<unknown>): Promise<string[]> {
  const log = recordStatements(kernel);
  try {
    return await log.during(run);
  } finally {
    log.stop();
  }
}

/**
 * A transaction as plugins hold it: an opaque handle that reads and writes take as `{ tx }`,
 * and that one plugin may pass to another's contract so that both write in the same
 * transaction. It carries nothing of the ORM.
 */
import type { EntityManager } from '@mikro-orm/core';

declare const TRANSACTION: unique symbol;

/** A transaction in progress; see `database.transaction`. */
export interface Transaction {
  readonly [TRANSACTION]: true;
}

/** Reads and writes inside a transaction name it. */
export interface TxOption {
  tx?: Transaction;
}

const managers = new WeakMap<Transaction, EntityManager>();

/** A new handle for the EntityManager of a transaction the kernel began. */
export function transactionOf(em: EntityManager): Transaction {
  const tx = Object.freeze({}) as Transaction;
  managers.set(tx, em);
  return tx;
}

/** The EntityManager behind a handle (undefined for none); a handle the kernel did not make is an error. */
export function emOf(tx: Transaction | undefined): EntityManager | undefined {
  if (tx === undefined) return undefined;
  const em = managers.get(tx);
  if (!em) throw new Error('Not a transaction of this database');
  return em;
}

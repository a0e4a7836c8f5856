/**
 * The Firestore adapter's transaction runner over a stand-in for Google's client (only
 * `runTransaction`): which failures run the whole transaction again, and which are thrown.
 * The real emulator's side of it is the contract suite's two-process updates.
 */
import type { Firestore, Transaction } from 'firebase-admin/firestore';
import { describe, expect, it } from 'vitest';
import { transact, transactionClosed } from '../../src/server/store/firestore/database.ts';

const grpcError = (code: number, details: string) => Object.assign(new Error(`${code} ${details}`), { code, details });
const CLOSED = () => grpcError(3, 'INVALID_ARGUMENT: Transaction is invalid or closed.');

/** A client whose transactions fail with `failures` in turn, then run the work. */
function clientFailing(...failures: Error[]) {
  const runs: number[] = [];
  const db = {
    async runTransaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
      runs.push(runs.length + 1);
      const failure = failures.shift();
      if (failure) throw failure;
      return work({} as Transaction);
    },
  };
  return { db: db as unknown as Firestore, runs };
}

describe('transact', () => {
  it('runs a transaction that the emulator closed under it again, reading afresh', async () => {
    const { db, runs } = clientFailing(CLOSED(), CLOSED());
    expect(await transact(db, async () => 'committed')).toBe('committed');
    expect(runs).toEqual([1, 2, 3]);
  });

  it('runs an expired transaction again (production’s wording)', async () => {
    const { db, runs } = clientFailing(grpcError(3, 'INVALID_ARGUMENT: The referenced transaction has expired or is no longer valid.'));
    expect(await transact(db, async () => 'committed')).toBe('committed');
    expect(runs).toHaveLength(2);
  });

  it('gives up after three more runs and throws the last failure', async () => {
    const { db, runs } = clientFailing(CLOSED(), CLOSED(), CLOSED(), CLOSED(), CLOSED());
    await expect(transact(db, async () => 'committed')).rejects.toThrow('Transaction is invalid or closed');
    expect(runs).toHaveLength(4);
  });

  it('throws any other invalid argument at once: the request itself is wrong', async () => {
    const { db, runs } = clientFailing(grpcError(3, 'INVALID_ARGUMENT: Property name is too long'));
    await expect(transact(db, async () => 'committed')).rejects.toThrow('too long');
    expect(runs).toHaveLength(1);
  });

  it('tells the closed transaction apart from other errors', () => {
    expect(transactionClosed(CLOSED())).toBe(true);
    expect(transactionClosed(grpcError(10, 'ABORTED: Transaction is invalid or closed.'))).toBe(false);
    expect(transactionClosed(new Error('Transaction is invalid or closed'))).toBe(false);
    expect(transactionClosed(null)).toBe(false);
  });
});

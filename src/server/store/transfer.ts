/**
 * Moving a whole store to another backend (`npm run store:copy`): every adapter can list all
 * its records of a kind, in a canonical shape shared by all adapters, and write such records
 * back as they were (ids, states and timestamps kept). Writing is idempotent: copying twice
 * changes nothing. The copy script proves completeness by counts and checksums of both sides.
 * The kinds, their order, identities and checks are the registry's (./kinds.ts).
 */
import type { TransferKind, TransferRecords } from './kinds.ts';

export { TRANSFER_KINDS, type TransferKind, type TransferRecords } from './kinds.ts';
export type { PaymentEventRecord } from './payments.ts';

export interface TransferStore {
  /**
   * All records of a kind, a page at a time (pages of any size; the order is the adapter's).
   * A reader may stop early.
   */
  exportRecords<K extends TransferKind>(kind: K): AsyncIterable<readonly TransferRecords[K][]>;
  /**
   * Writes records as they are, each replacing the record of the same identity (the registry's
   * `identity`): users whole, orders with their state, banners with their order, posts with
   * their slugs and search index, audit entries with their ids (later entries continue after
   * the highest). Every record is checked before the first write. Returns how many were written.
   */
  importRecords<K extends TransferKind>(kind: K, records: readonly TransferRecords[K][]): Promise<number>;
}

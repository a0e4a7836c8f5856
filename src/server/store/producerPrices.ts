/**
 * Producer list prices, the Store port's part (issue 20): the desk's entries of what Reliance,
 * IOCL, GAIL … list for a grade at a place from a date (src/lib/producerPrices.ts owns the
 * record, the catalog and the revisions, which are computed from these records, never stored).
 * Every write is audited in its own transaction: a form's one price or an import's file, all or
 * nothing.
 */
import type { ProducerPriceRecord } from '../../lib/producerPrices.ts';
import type { AuditActor, AuditEntry } from './audit.ts';

export type { ProducerPriceRecord } from '../../lib/producerPrices.ts';

/** The audit target of a producer's list prices, and of an import that spans producers. */
export const producerPricesTarget = (producer: string): string => `producerPrices:${producer}`;
export const PRODUCER_IMPORT_TARGET = 'producerPrices:import';

export interface ProducerPriceWrite {
  /** Checked records (src/lib/producerPrices.ts, `listPriceProblem`), at most one per id. */
  readonly records: readonly ProducerPriceRecord[];
  readonly actor: AuditActor;
  readonly now: Date;
  /** `form` (one price) or `import` (a file): the audit action. */
  readonly via: 'form' | 'import';
  /** Counts what would change and writes nothing. */
  readonly dryRun: boolean;
}

export interface ProducerPriceWriteResult {
  readonly rows: number;
  /** The records written: new (line, effective date), or a new value for one (a correction). */
  readonly written: readonly ProducerPriceRecord[];
  /** Null for a dry run and for a write that changed nothing. */
  readonly entry: AuditEntry | null;
}

export interface ProducerPriceStore {
  /** Every list price, or one producer's (a few thousand at most), in no particular order. */
  listProducerPrices(producer?: string): Promise<ProducerPriceRecord[]>;
  /**
   * Upserts list prices in one transaction with one audit entry (before and after of each
   * changed price). A price already held with the same value is left as it is (its entry time
   * and author kept).
   */
  adminWriteProducerPrices(write: ProducerPriceWrite): Promise<ProducerPriceWriteResult>;
}

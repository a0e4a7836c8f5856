/**
 * The document driver: the small interface the shared record logic (users, payments, audit,
 * saved views, delivery) is written against, once, with one implementation per backend
 * (sqlite/documents.ts, firestore/documents.ts). A record is stored whole under its kind's key
 * (the registry's layout, ../kinds.ts); lists filter on the kind's indexes.
 *
 * Transactions behave alike on both backends: every read happens when it is asked, every write
 * is held and applied at commit, after all reads (Firestore's rule, which SQLite follows here
 * so one piece of logic means the same on both). `create` writes come first in the commit:
 * they are the guards of Firestore's idempotency (docs/data.md, "Firestore layout").
 */
import type { AuditEntry, NewAuditEntry } from '../audit.ts';
import type { DocumentKind, IndexValue, TransferRecords } from '../kinds.ts';

export type { DocumentKind, IndexValue } from '../kinds.ts';
export type Rec<K extends DocumentKind> = TransferRecords[K];

/** A condition on an index of the kind (or, on SQLite's JSON tables, any record field). */
export interface Filter {
  readonly index: string;
  /** `==` unless given. */
  readonly op?: '==' | '<';
  readonly value: IndexValue;
  /** The value as the caller had it, before the index's normalization (Firestore's legacy look-ups). */
  readonly asTyped?: string | undefined;
}

export interface ListOptions {
  /** Creation order for sequenced kinds, else key order; `desc` reverses it. */
  readonly order?: 'asc' | 'desc';
  readonly limit?: number;
  readonly offset?: number;
}

export interface DocumentReads {
  /** The record of `key`, or null (also for a key no document can have). */
  get<K extends DocumentKind>(kind: K, key: string): Promise<Rec<K> | null>;
  /** Records matching every filter, in the kind's order. */
  list<K extends DocumentKind>(kind: K, filters: readonly Filter[], options?: ListOptions): Promise<Rec<K>[]>;
  count<K extends DocumentKind>(kind: K, filters: readonly Filter[]): Promise<number>;
}

export interface DocumentTransaction extends DocumentReads {
  /** Writes the whole record (replacing one of its key). */
  put<K extends DocumentKind>(kind: K, record: Rec<K>): void;
  /** Writes a new record; one of its key already there fails the commit (Firestore runs the transaction again). */
  create<K extends DocumentKind>(kind: K, record: Rec<K>): void;
  delete<K extends DocumentKind>(kind: K, key: string): void;
  /**
   * Numbers and records an audit entry in this transaction (at most one per transaction): the
   * change and its entry land together or not at all.
   */
  audit(entry: NewAuditEntry): Promise<AuditEntry>;
}

export interface DocumentDriver extends DocumentReads {
  /** One transaction, queued behind this process's others; run again where a guard met a record. */
  transact<T>(work: (tx: DocumentTransaction) => Promise<T>): Promise<T>;
  /** Writes a new record unless one of its key exists: false then, and nothing written. */
  createOnce<K extends DocumentKind>(kind: K, record: Rec<K>): Promise<boolean>;
  /** `listener` runs after every write of `kind` through this driver settles, committed or not. */
  onWritten(kind: DocumentKind, listener: () => void): void;
  /** Every record of a kind, a page at a time, in the kind's order (creation order survives a copy). */
  exportRecords<K extends DocumentKind>(kind: K): AsyncIterable<readonly Rec<K>[]>;
  /** Upserts whole records by key (checked by the caller); existing ones keep their place in creation order. */
  importRecords<K extends DocumentKind>(kind: K, records: readonly Rec<K>[]): Promise<number>;
  /** One tiny read: throws when the store cannot be read. */
  ping(): Promise<void>;
}

/** Sorts records by some fields (lists the backends cannot order without composite indexes). */
export const byFields =
  <R>(...fields: (keyof R)[]) =>
  (a: R, b: R): number => {
    for (const field of fields) {
      const x = String(a[field]);
      const y = String(b[field]);
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  };

/** The listeners of `onWritten`, and telling them (both drivers). */
export function writeListeners(): { onWritten: DocumentDriver['onWritten']; notify(kinds: Iterable<DocumentKind>): void } {
  const listeners = new Map<DocumentKind, (() => void)[]>();
  return {
    onWritten(kind, listener) {
      listeners.set(kind, [...(listeners.get(kind) ?? []), listener]);
    },
    notify(kinds) {
      for (const kind of kinds) for (const listener of listeners.get(kind) ?? []) listener();
    },
  };
}

/** Each kind's layout on a backend: its own where it has one, else the default made from the registry (made once). */
export function layoutsBy<L>(own: { readonly [K in DocumentKind]?: unknown }, byDefault: (kind: DocumentKind) => L): (kind: DocumentKind) => L {
  const made = new Map<DocumentKind, L>();
  return (kind) => {
    let layout = made.get(kind);
    if (!layout) {
      layout = (own[kind] as L | undefined) ?? byDefault(kind);
      made.set(kind, layout);
    }
    return layout;
  };
}

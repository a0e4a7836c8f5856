/**
 * The transfer port (../transfer.ts) of an adapter: the kinds the registry gives a document
 * layout move through the document driver, the others through the adapter's own code (prices,
 * banner images, posts). Every record of an import is checked by the registry's check before
 * anything is written.
 */
import { isDocumentKind, specOf, type DocumentKind, type TransferKind, type TransferRecords } from '../kinds.ts';
import type { TransferStore } from '../transfer.ts';
import type { DocumentDriver } from './driver.ts';

/** The transfer port restricted to some kinds. */
export interface PartialTransfer<Kinds extends TransferKind> {
  exportRecords<K extends Kinds>(kind: K): AsyncIterable<readonly TransferRecords[K][]>;
  importRecords<K extends Kinds>(kind: K, records: readonly TransferRecords[K][]): Promise<number>;
}

/** The kinds an adapter stores itself. */
export type OwnKind = Exclude<TransferKind, DocumentKind>;

export function transferOver(docs: DocumentDriver, own: PartialTransfer<OwnKind>): TransferStore {
  return {
    exportRecords<K extends TransferKind>(kind: K): AsyncIterable<readonly TransferRecords[K][]> {
      // The casts only narrow K to the part that holds it (the kind was just tested).
      return (isDocumentKind(kind) ? docs.exportRecords(kind) : own.exportRecords(kind as OwnKind)) as AsyncIterable<readonly TransferRecords[K][]>;
    },
    importRecords<K extends TransferKind>(kind: K, records: readonly TransferRecords[K][]): Promise<number> {
      const { check } = specOf(kind);
      if (check) for (const record of records) check(record);
      if (isDocumentKind(kind)) return docs.importRecords(kind as DocumentKind, records as unknown as readonly TransferRecords[DocumentKind][]);
      return own.importRecords(kind as OwnKind, records as readonly TransferRecords[OwnKind][]);
    },
  };
}

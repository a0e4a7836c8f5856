/**
 * The transfer port on Firestore (`npm run store:copy`): users, orders, payment events and
 * audit entries by ./documentTransfer.ts, banner images by ./bannerImages.ts, the price kinds
 * (series, points, city rows, offers, banners) by ./priceTransfer.ts.
 */
import type { Firestore } from 'firebase-admin/firestore';
import type { TransferKind, TransferRecords, TransferStore } from '../transfer.ts';
import { createFirestoreDocumentTransfer, isDocumentKind, type DocumentKind } from './documentTransfer.ts';
import { exportBannerImages, importBannerImages } from './bannerImages.ts';
import { createFirestorePriceTransfer } from './priceTransfer.ts';

type PriceKind = Exclude<TransferKind, DocumentKind | 'bannerImages'>;

/** `usersWritten` is told when an import of user records settles: the record cache. */
export function createFirestoreTransfer(db: Firestore, usersWritten: () => void = () => undefined): TransferStore {
  const documents = createFirestoreDocumentTransfer(db, usersWritten);
  const prices = createFirestorePriceTransfer(db);
  return {
    exportRecords<K extends TransferKind>(kind: K): AsyncIterable<readonly TransferRecords[K][]> {
      // The casts only narrow K to the part that holds it (the kind was just tested).
      if (isDocumentKind(kind)) return documents.exportRecords(kind) as AsyncIterable<readonly TransferRecords[K][]>;
      if (kind === 'bannerImages') return exportBannerImages(db) as AsyncIterable<readonly TransferRecords[K][]>;
      return prices.exportRecords(kind as PriceKind) as AsyncIterable<readonly TransferRecords[K][]>;
    },
    importRecords<K extends TransferKind>(kind: K, records: readonly TransferRecords[K][]): Promise<number> {
      if (isDocumentKind(kind)) return documents.importRecords(kind as DocumentKind, records as readonly TransferRecords[DocumentKind][]);
      if (kind === 'bannerImages') return importBannerImages(db, records as readonly TransferRecords['bannerImages'][]);
      return prices.importRecords(kind as PriceKind, records as readonly TransferRecords[PriceKind][]);
    },
  };
}

/**
 * The Firestore adapter's own kinds of `npm run store:copy` (the document kinds move through
 * ./documents.ts): the price kinds by ./priceTransfer.ts, banner images by ./bannerImages.ts,
 * posts by ./posts.ts.
 */
import type { Firestore } from 'firebase-admin/firestore';
import type { OwnKind, PartialTransfer } from '../documents/transfer.ts';
import type { TransferRecords } from '../kinds.ts';
import { exportBannerImages, importBannerImages } from './bannerImages.ts';
import { exportPosts, importPosts } from './posts.ts';
import { createFirestorePriceTransfer, type PriceTransferKind } from './priceTransfer.ts';

export function createFirestoreOwnTransfer(db: Firestore): PartialTransfer<OwnKind> {
  const prices = createFirestorePriceTransfer(db);
  return {
    exportRecords<K extends OwnKind>(kind: K): AsyncIterable<readonly TransferRecords[K][]> {
      // The casts only narrow K to the part that holds it (the kind was just tested).
      if (kind === 'bannerImages') return exportBannerImages(db) as AsyncIterable<readonly TransferRecords[K][]>;
      if (kind === 'posts') return exportPosts(db) as AsyncIterable<readonly TransferRecords[K][]>;
      return prices.exportRecords(kind as PriceTransferKind) as AsyncIterable<readonly TransferRecords[K][]>;
    },
    importRecords<K extends OwnKind>(kind: K, records: readonly TransferRecords[K][]): Promise<number> {
      if (kind === 'bannerImages') return importBannerImages(db, records as readonly TransferRecords['bannerImages'][]);
      if (kind === 'posts') return importPosts(db, records as readonly TransferRecords['posts'][]);
      return prices.importRecords(kind as PriceTransferKind, records as readonly TransferRecords[PriceTransferKind][]);
    },
  };
}

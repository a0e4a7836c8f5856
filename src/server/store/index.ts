/**
 * The Store port and its adapters. Pages and endpoints reach data only through this type;
 * `openStore` opens the SQLite adapter (a file or a libSQL server), `openFirestoreStore` the
 * Firestore one (open.ts chooses from the configuration).
 */
import { auditMigrations, createSqliteAuditStore } from './sqlite/audit.ts';
import { bannerImageMigrations, createSqliteBannerImageStore } from './sqlite/bannerImages.ts';
import { migrate, openSqlite, type SqliteOptions } from './sqlite/database.ts';
import { createSqlitePaymentStore, paymentMigrations } from './sqlite/payments.ts';
import { createSqliteDeliveryStore, deliveryMigrations } from './sqlite/delivery.ts';
import { createSqlitePriceStore, priceMigrations } from './sqlite/prices.ts';
import { createSqliteSavedViewStore, savedViewMigrations } from './sqlite/savedViews.ts';
import { createSqliteTransfer } from './sqlite/transfer.ts';
import { createSqliteUserStore, sqliteUserCache, userMigrations } from './sqlite/users.ts';
import { createFirestoreAuditStore } from './firestore/audit.ts';
import { createFirestoreBannerImageStore } from './firestore/bannerImages.ts';
import { openFirestore, type FirestoreOptions } from './firestore/database.ts';
import { createFirestorePaymentStore } from './firestore/payments.ts';
import { createFirestoreDeliveryStore } from './firestore/delivery.ts';
import { createFirestorePriceStore } from './firestore/prices.ts';
import { createFirestoreSavedViewStore } from './firestore/savedViews.ts';
import { createFirestoreTransfer } from './firestore/transfer.ts';
import { createFirestoreUserStore, firestoreUserCache } from './firestore/users.ts';
import type { AuditStore } from './audit.ts';
import type { DeliveryStore } from './delivery.ts';
import type { PaymentStore } from './payments.ts';
import type { BannerAdminStore } from './bannerAdmin.ts';
import type { BannerImageStore } from './bannerImages.ts';
import type { PriceAdminStore } from './priceAdmin.ts';
import type { PriceStore } from './prices.ts';
import type { SavedViewStore } from './savedViews.ts';
import type { TransferStore } from './transfer.ts';
import type { UserCacheOptions } from './userCache.ts';
import type { UserStore } from './users.ts';

export type Store = UserStore &
  PaymentStore &
  PriceStore &
  PriceAdminStore &
  BannerAdminStore &
  BannerImageStore &
  AuditStore &
  SavedViewStore &
  TransferStore &
  DeliveryStore & {
    close(): Promise<void>;
  };

/** Tuning of the store's user-record cache (./userCache.ts): tests drive its clock and bound. */
export interface StoreCacheOptions {
  readonly userCache?: UserCacheOptions | undefined;
}

export async function openStore(options: SqliteOptions & StoreCacheOptions): Promise<Store> {
  const client = await openSqlite(options);
  await migrate(client, [...userMigrations, ...paymentMigrations, ...priceMigrations, ...auditMigrations, ...bannerImageMigrations, ...deliveryMigrations, ...savedViewMigrations]);
  // Every part that writes user records tells the one cache of this handle.
  const users = sqliteUserCache(client, options.userCache);
  const usersWritten = () => users.written();
  return {
    ...createSqliteUserStore(client, users),
    ...createSqlitePaymentStore(client, usersWritten),
    ...createSqlitePriceStore(client),
    ...createSqliteAuditStore(client, usersWritten),
    ...createSqliteBannerImageStore(client),
    ...createSqliteSavedViewStore(client),
    ...createSqliteTransfer(client, undefined, usersWritten),
    ...createSqliteDeliveryStore(client),
    async close() {
      // Fold the WAL back into the database file, so a stopped server leaves one complete file
      // (backups and copies of DATA_DIR need nothing else). A libSQL server does its own.
      if (options.url.startsWith('file:')) await client.execute('PRAGMA wal_checkpoint(TRUNCATE)').catch(() => undefined);
      client.close();
    },
  };
}

export async function openFirestoreStore(options: FirestoreOptions & StoreCacheOptions): Promise<Store> {
  const { db, close } = openFirestore(options);
  const users = firestoreUserCache(db, options.userCache);
  const usersWritten = () => users.written();
  return {
    ...createFirestoreUserStore(db, users),
    ...createFirestorePaymentStore(db, usersWritten),
    ...createFirestorePriceStore(db),
    ...createFirestoreAuditStore(db, usersWritten),
    ...createFirestoreBannerImageStore(db),
    ...createFirestoreSavedViewStore(db),
    ...createFirestoreTransfer(db, usersWritten),
    ...createFirestoreDeliveryStore(db),
    close,
  };
}

/** The embedded default's database file inside DATA_DIR. */
export const sqliteUrlFor = (dataDir: string): string => `file:${dataDir.replace(/\/$/, '')}/polyindex.db`;

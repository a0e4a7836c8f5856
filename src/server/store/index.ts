/**
 * The Store port and its adapters. Pages and endpoints reach data only through this type;
 * `openStore` opens the SQLite adapter (a file or a libSQL server), `openFirestoreStore` the
 * Firestore one (open.ts chooses from the configuration).
 */
import { createApiKeyStore } from './documents/apiKeys.ts';
import { createAuditStore } from './documents/audit.ts';
import { createDeliveryStore } from './documents/delivery.ts';
import type { DocumentDriver } from './documents/driver.ts';
import { createInvoiceStore } from './documents/invoices.ts';
import { createForecastStore } from './documents/forecasts.ts';
import { createPaymentStore } from './documents/payments.ts';
import { createCustomsRateStore } from './documents/customsRates.ts';
import { createProducerPriceStore } from './documents/producerPrices.ts';
import { createSavedViewStore } from './documents/savedViews.ts';
import { createSeatStore } from './documents/seats.ts';
import { createPublicChangeStore, markingPublicChanges } from './documents/publicChanges.ts';
import { transferOver, type OwnKind, type PartialTransfer } from './documents/transfer.ts';
import { createUserStore, type UserQueries } from './documents/users.ts';
import { bannerImageMigrations, createSqliteBannerImageStore } from './sqlite/bannerImages.ts';
import { migrate, openSqlite, type SqliteOptions } from './sqlite/database.ts';
import { createSqliteDocuments } from './sqlite/documents.ts';
import { openPointReader, pointReadPathOf } from './sqlite/pointReads.ts';
import { createSqliteOwnTransfer } from './sqlite/ownTransfer.ts';
import { createSqlitePostStore, postMigrations } from './sqlite/posts.ts';
import { createSqlitePriceStore, priceMigrations } from './sqlite/prices.ts';
import { documentMigrations, recordMigrations } from './sqlite/tables.ts';
import { sqliteUserCache, sqliteUserQueries } from './sqlite/users.ts';
import { createFirestoreBannerImageStore } from './firestore/bannerImages.ts';
import { openFirestore, type FirestoreOptions } from './firestore/database.ts';
import { createFirestoreDocuments } from './firestore/documents.ts';
import { createFirestorePostStore } from './firestore/posts.ts';
import { createFirestorePriceStore } from './firestore/prices.ts';
import { createFirestoreOwnTransfer } from './firestore/transfer.ts';
import { firestoreUserCache, firestoreUserQueries } from './firestore/users.ts';
import type { Firestore } from 'firebase-admin/firestore';
import type { UserRecordCache } from './userCache.ts';
import type { ApiKeyStore } from './apiKeys.ts';
import type { AuditStore } from './audit.ts';
import type { DeliveryStore } from './delivery.ts';
import type { InvoiceStore } from './invoices.ts';
import type { ForecastStore } from './forecasts.ts';
import type { PaymentStore } from './payments.ts';
import type { PostStore } from './posts.ts';
import type { BannerAdminStore } from './bannerAdmin.ts';
import type { BannerImageStore } from './bannerImages.ts';
import type { PriceAdminStore } from './priceAdmin.ts';
import type { PriceStore } from './prices.ts';
import type { CustomsRateStore } from './customsRates.ts';
import type { ProducerPriceStore } from './producerPrices.ts';
import type { PublicChangeStore } from './publicChanges.ts';
import type { SavedViewStore } from './savedViews.ts';
import type { SeatStore } from './seats.ts';
import type { TransferStore } from './transfer.ts';
import type { UserCacheOptions } from './userCache.ts';
import type { UserStore } from './users.ts';

export type Store = UserStore &
  PaymentStore &
  InvoiceStore &
  PriceStore &
  PriceAdminStore &
  BannerAdminStore &
  BannerImageStore &
  AuditStore &
  PostStore &
  SavedViewStore &
  CustomsRateStore &
  ProducerPriceStore &
  ForecastStore &
  ApiKeyStore &
  SeatStore &
  TransferStore &
  DeliveryStore &
  PublicChangeStore & {
    /** One tiny read: resolves when the store answers (health checks, outage probes). */
    ping(): Promise<void>;
    /**
     * A number that changes whenever a write has been committed, by this process or any other,
     * since it was last asked; synchronous. null when the store cannot tell cheaply (Firestore, a
     * libSQL server): then whatever must be exact is read again. A copy of records made after
     * reading a mark may be used while the mark stays the same (the data feed's keys).
     */
    changeMark(): number | null;
    close(): Promise<void>;
  };

/** Tuning of the store's user-record cache (./userCache.ts): tests drive its clock and bound. */
export interface StoreCacheOptions {
  readonly userCache?: UserCacheOptions | undefined;
}

/** What each backend brings: its document driver, and the parts it stores its own way. */
interface Backend {
  readonly docs: DocumentDriver;
  readonly users: UserRecordCache;
  readonly userQueries: UserQueries;
  readonly own: PriceStore & PriceAdminStore & BannerAdminStore & BannerImageStore & PostStore;
  readonly ownTransfer: PartialTransfer<OwnKind>;
  /** Store['changeMark'] (a SQLite file: its point reader's `PRAGMA data_version`, asked only when the WAL index's header moved); none: always null. */
  readonly changeMark?: (() => number | null) | undefined;
}

/** The record-storing parts, written once over the backend's document driver, and the backend's own. */
function storeOver({ docs, users, userQueries, own, ownTransfer, changeMark = () => null }: Backend, close: () => Promise<void>): Store {
  const publicChanges = createPublicChangeStore(docs);
  return {
    // Writes public pages show mark a change for every instance's page cache.
    ...markingPublicChanges(own, publicChanges),
    ...publicChanges,
    ...createUserStore(docs, users, userQueries),
    ...createPaymentStore(docs),
    ...createInvoiceStore(docs),
    ...createAuditStore(docs),
    ...createSavedViewStore(docs),
    ...createCustomsRateStore(docs),
    ...createProducerPriceStore(docs),
    ...createForecastStore(docs),
    ...createApiKeyStore(docs),
    ...createSeatStore(docs),
    ...createDeliveryStore(docs),
    ...transferOver(docs, ownTransfer),
    ping: () => docs.ping(),
    changeMark,
    close,
  };
}

export async function openStore(options: SqliteOptions & StoreCacheOptions): Promise<Store> {
  const client = await openSqlite(options);
  await migrate(client, [...recordMigrations, ...priceMigrations, ...bannerImageMigrations, ...postMigrations, ...documentMigrations()]);
  const pointPath = pointReadPathOf(options.url);
  const pointReader = pointPath ? openPointReader(pointPath) : undefined;
  const docs = createSqliteDocuments(client, pointReader);
  const own = { ...createSqlitePriceStore(client), ...createSqliteBannerImageStore(client), ...createSqlitePostStore(client) };
  return storeOver(
    { docs, users: sqliteUserCache(client, docs, options.userCache), userQueries: sqliteUserQueries(client), own, ownTransfer: createSqliteOwnTransfer(client), changeMark: pointReader && (() => pointReader.changeMark()) },
    async () => {
      // Fold the WAL back into the database file, so a stopped server leaves one complete file
      // (backups and copies of DATA_DIR need nothing else). A libSQL server does its own.
      pointReader?.close();
      if (options.url.startsWith('file:')) await client.execute('PRAGMA wal_checkpoint(TRUNCATE)').catch(() => undefined);
      client.close();
    },
  );
}

/** The store over an open Firestore handle (tests hold the handle to look at documents). */
export function firestoreStoreOver(db: Firestore, options: StoreCacheOptions = {}, close: () => Promise<void> = async () => undefined): Store {
  const docs = createFirestoreDocuments(db);
  const own = { ...createFirestorePriceStore(db), ...createFirestoreBannerImageStore(db), ...createFirestorePostStore(db) };
  return storeOver({ docs, users: firestoreUserCache(db, docs, options.userCache), userQueries: firestoreUserQueries(db), own, ownTransfer: createFirestoreOwnTransfer(db) }, close);
}

export async function openFirestoreStore(options: FirestoreOptions & StoreCacheOptions): Promise<Store> {
  const { db, close } = openFirestore(options);
  return firestoreStoreOver(db, options, close);
}

/** The embedded default's database file inside DATA_DIR. */
export const sqliteUrlFor = (dataDir: string): string => `file:${dataDir.replace(/\/$/, '')}/polyindex.db`;

/**
 * Moving a whole store to another backend (`npm run store:copy`): every adapter can list all
 * its records of a kind, in a canonical shape shared by all adapters, and write such records
 * back as they were (ids, states and timestamps kept). Writing is idempotent: copying twice
 * changes nothing. The copy script proves completeness by counts and checksums of both sides.
 */
import type { AuditEntry } from './audit.ts';
import type { BannerImageRecord } from './bannerImages.ts';
import type { AlertRecord, DeliveryLogRecord, DeliverySettings, WhatsAppContact } from './delivery.ts';
import type { OrderRecord } from './payments.ts';
import type { Post } from './posts.ts';
import type { Banner, CityPriceRow, OfferRecord, PointRow, SeriesDef } from './prices.ts';
import type { SavedView } from './savedViews.ts';
import type { UserRecord } from './users.ts';

/** A processed webhook event. */
export interface PaymentEventRecord {
  readonly id: string;
  readonly type: string;
  /** ISO instant. */
  readonly receivedAt: string;
}

/** Every kind of record a store holds, in the order a copy writes them. */
export interface TransferRecords {
  users: UserRecord;
  orders: OrderRecord;
  paymentEvents: PaymentEventRecord;
  series: SeriesDef;
  points: PointRow;
  cityPrices: CityPriceRow;
  offers: OfferRecord;
  banners: Banner;
  bannerImages: BannerImageRecord;
  posts: Post;
  audit: AuditEntry;
  deliverySettings: DeliverySettings;
  alerts: AlertRecord;
  whatsappContacts: WhatsAppContact;
  deliveryLog: DeliveryLogRecord;
  savedViews: SavedView;
}

export type TransferKind = keyof TransferRecords;

export const TRANSFER_KINDS: readonly TransferKind[] = [
  'users',
  'orders',
  'paymentEvents',
  'series',
  'points',
  'cityPrices',
  'offers',
  'banners',
  'bannerImages',
  'posts',
  'audit',
  'deliverySettings',
  'alerts',
  'whatsappContacts',
  'deliveryLog',
  'savedViews',
];

export interface TransferStore {
  /**
   * All records of a kind, a page at a time (pages of any size; the order is the adapter's).
   * A reader may stop early.
   */
  exportRecords<K extends TransferKind>(kind: K): AsyncIterable<readonly TransferRecords[K][]>;
  /**
   * Writes records as they are: users by uid (whole record), orders by id (state kept),
   * events by id, series by id, points by (series, date), city rows by (city, date, grade),
   * offers by (country, date), banners by id (order kept), banner images by name, posts by id
   * (with their slugs and search index), audit
   * entries by id (id kept; later
   * entries continue after the highest id), saved views by id. Existing records with the same identity are
   * replaced. Returns how many records were written.
   */
  importRecords<K extends TransferKind>(kind: K, records: readonly TransferRecords[K][]): Promise<number>;
}

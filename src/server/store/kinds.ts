/**
 * The registry of record kinds: the one list of what a store holds. Everything that walks
 * "every kind" reads it: `store:copy` (./copy.ts, scripts/store-copy.ts) in its order, the
 * checksums (./checksum.ts) by its identity fields, backups (../ops/backup.ts), and both
 * adapters' transfer parts, which store a kind with a `documents` layout through the shared
 * document layer (./documents/) and any other kind through their own code (prices, banner
 * images, posts).
 *
 * Adding a kind: one entry here (its record type, identity, check and layout), its Store part
 * written once over the document driver, and its wiring in ./index.ts (docs/architecture.md,
 * "Adding a record kind").
 */
import { customsNotificationProblem, type CustomsRateNotification } from '../../lib/customsRates.ts';
import type { ApiKeyMeter, ApiKeyRecord, ApiKeyUsageDay } from './apiKeys.ts';
import type { AuditEntry } from './audit.ts';
import type { BannerImageRecord } from './bannerImages.ts';
import type { AlertRecord, DeliveryLogRecord, DeliverySettings, WhatsAppContact } from './delivery.ts';
import type { BillingDetails, CreditNoteRecord, DocumentCounter, InvoiceRecord } from './invoices.ts';
import { checkForecast, checkScore, type ScoreRecord } from './forecasts.ts';
import type { Forecast } from '../../lib/forecasts/model.ts';
import type { OrderRecord, PaymentEventRecord } from './payments.ts';
import type { Post } from './posts.ts';
import { lineIdOf, producerPriceId, type ProducerPriceRecord } from '../../lib/producerPrices.ts';
import type { PublicChangeRecord } from './publicChanges.ts';
import type { Banner, CityPriceRow, OfferRecord, PointRow, SeriesDef } from './prices.ts';
import { checkOffer, checkQuote } from './checks.ts';
import { viewNameKey, type SavedView } from './savedViews.ts';
import type { SeatRecord } from './seats.ts';
import { userLookupKey, type UserRecord } from './users.ts';

/**
 * Where a kind's records live when the shared document layer stores them: one document (one
 * row) per record, named by `key`.
 *
 * - Firestore: `{collection}/{key}`, the record's fields as they are (a backend may add
 *   fields of its own for reads, e.g. `_seq`).
 * - SQLite: the table `table`, primary key `key`, one column per entry of `indexes`, and the
 *   whole record as JSON in `record` (the SQLite driver creates such a table from this entry;
 *   the kinds that predate the registry keep their own columns: sqlite/tables.ts).
 */
export interface DocumentLayout<R> {
  readonly collection: string;
  readonly table: string;
  /** The field that names a record: its document id and primary key. */
  readonly key: keyof R & string;
  /**
   * What lists filter on: `true` for a record field of that name, or a value computed from the
   * record (stored beside it: a column, a top-level field, and stripped on read).
   */
  readonly indexes?: Readonly<Record<string, true | ((record: R) => IndexValue)>>;
  /** Lists keep creation order (SQLite's rowid, Firestore's `_seq`); otherwise key order. */
  readonly sequenced?: boolean;
  /** Fields a record written before they existed lacks, and takes on read. */
  readonly defaults?: Partial<R>;
}

/** A value lists filter on. */
export type IndexValue = string | number | boolean | null;

export interface KindSpec<R> {
  /** The fields that identify a record: `importRecords` upserts by them, checksums sort by them. */
  readonly identity: readonly (keyof R & string)[];
  /** Throws (RangeError) for a record no store may hold; run on every record of an import before any write. */
  readonly check?: (record: R) => void;
  /** Stored by the shared document layer; absent: each adapter stores the kind itself. */
  readonly documents?: DocumentLayout<R>;
}

/** An entry of the registry for records of type R (the spec's own type is kept: which parts it has). */
const kind =
  <R>() =>
  <S extends KindSpec<R>>(spec: S): S & { readonly record?: R } =>
    spec;

const finite = (what: string, value: unknown): void => {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new RangeError(`not a finite number: ${what}`);
};
const text = (what: string, value: unknown): void => {
  if (typeof value !== 'string' || !value) throw new RangeError(`${what} must be non-empty text`);
};

/** Every kind, in the order a copy writes them (users before what refers to them). */
export const RECORD_KINDS = {
  users: kind<UserRecord>()({
    identity: ['uid'],
    check: (user) => text('a user record\'s uid', user.uid),
    documents: { collection: 'users', table: 'users', key: 'uid', indexes: { email: (user) => userLookupKey('email', user.email), phone: (user) => userLookupKey('phone', user.phone) }, sequenced: true },
  }),
  orders: kind<OrderRecord>()({
    identity: ['id'],
    check: (order) => finite(`amount of order ${order.id}`, order.amount),
    documents: { collection: 'orders', table: 'orders', key: 'id', indexes: { uid: true, status: true }, sequenced: true },
  }),
  paymentEvents: kind<PaymentEventRecord>()({
    identity: ['id'],
    documents: { collection: 'paymentEvents', table: 'payment_events', key: 'id' },
  }),
  billingDetails: kind<BillingDetails>()({
    identity: ['uid'],
    check: (details) => {
      text('billing details\' uid', details.uid);
      text(`billing details of ${details.uid}: the legal name`, details.legalName);
    },
    documents: { collection: 'billingDetails', table: 'billing_details', key: 'uid' },
  }),
  // Counters before the documents they numbered, so a partial copy never hands out a number twice.
  documentCounters: kind<DocumentCounter>()({
    identity: ['key'],
    check: (counter) => {
      if (!Number.isSafeInteger(counter.last) || counter.last < 0) throw new RangeError(`counter ${counter.key}: not a sequence: ${String(counter.last)}`);
    },
    documents: { collection: 'documentCounters', table: 'document_counters', key: 'key' },
  }),
  invoices: kind<InvoiceRecord>()({
    identity: ['id'],
    check: (invoice) => {
      text(`invoice ${invoice.id}'s number`, invoice.number);
      text(`invoice ${invoice.id}'s order`, invoice.orderId);
      finite(`amount of invoice ${invoice.id}`, invoice.document.tax.totalPaise);
    },
    documents: { collection: 'invoices', table: 'invoices', key: 'id', indexes: { uid: true, orderId: true, paymentId: true } },
  }),
  creditNotes: kind<CreditNoteRecord>()({
    identity: ['id'],
    check: (note) => {
      text(`credit note ${note.id}'s invoice`, note.invoiceNumber);
      finite(`amount of credit note ${note.id}`, note.document.tax.totalPaise);
    },
    documents: { collection: 'creditNotes', table: 'credit_notes', key: 'id', indexes: { uid: true, refundId: true } },
  }),
  series: kind<SeriesDef>()({ identity: ['id'] }),
  points: kind<PointRow>()({ identity: ['seriesId', 'date'], check: (p) => checkQuote(p, `${p.seriesId} on ${p.date}`) }),
  cityPrices: kind<CityPriceRow>()({
    identity: ['city', 'date', 'grade'],
    check: (r) => checkQuote({ value: r.price, low: r.low, high: r.high }, `price of ${r.city} ${r.grade} on ${r.date}`),
  }),
  offers: kind<OfferRecord>()({ identity: ['country', 'date'], check: (o) => void checkOffer(o, `offers of ${o.country} on ${o.date}`) }),
  customsRates: kind<CustomsRateNotification>()({
    identity: ['effectiveFrom'],
    check: (n) => {
      const problem = customsNotificationProblem(n);
      if (problem) throw new RangeError(`customs notification ${JSON.stringify(n.number)}: ${problem}`);
    },
    // Key order is effective-date order (ISO dates).
    documents: { collection: 'customsRates', table: 'customs_rates', key: 'effectiveFrom' },
  }),
  banners: kind<Banner>()({ identity: ['id'], check: (b) => finite(`order of banner ${b.id}`, b.order) }),
  bannerImages: kind<BannerImageRecord>()({ identity: ['name'] }),
  posts: kind<Post>()({ identity: ['id'] }),
  producerPrices: kind<ProducerPriceRecord>()({
    identity: ['id'],
    check: (price) => {
      finite(`list price ${price.id}`, price.value);
      if (price.id !== producerPriceId(lineIdOf(price), price.effective)) throw new RangeError(`list price ${JSON.stringify(price.id)}: the id is not its line and effective date`);
    },
    documents: { collection: 'producerPrices', table: 'producer_prices', key: 'id', indexes: { producer: true, product: true } },
  }),
  audit: kind<AuditEntry>()({
    identity: ['id'],
    check: (entry) => {
      if (!Number.isSafeInteger(entry.id) || entry.id < 1) throw new RangeError(`not an audit id: ${String(entry.id)}`);
    },
    // Numbered by the driver (DocumentTransaction.audit); newest first is key order, reversed.
    documents: {
      collection: 'audit',
      table: 'audit_log',
      key: 'id',
      indexes: { target: true, actorUid: (entry) => entry.actor.uid, actorEmail: (entry) => entry.actor.email?.trim().toLowerCase() ?? null },
    },
  }),
  deliverySettings: kind<DeliverySettings>()({
    identity: ['uid'],
    documents: { collection: 'deliverySettings', table: 'delivery_settings', key: 'uid', indexes: { active: (settings) => settings.email || settings.whatsapp } },
  }),
  alerts: kind<AlertRecord>()({
    identity: ['id'],
    check: (alert) => finite(`value of alert ${alert.id}`, alert.value),
    documents: { collection: 'alerts', table: 'alerts', key: 'id', indexes: { uid: true, instrument: true } },
  }),
  whatsappContacts: kind<WhatsAppContact>()({
    identity: ['number'],
    documents: { collection: 'whatsappContacts', table: 'whatsapp_contacts', key: 'number', indexes: { uid: true }, defaults: { codeSentAt: [] } },
  }),
  deliveryLog: kind<DeliveryLogRecord>()({
    identity: ['key'],
    documents: { collection: 'deliveryLog', table: 'delivery_log', key: 'key', indexes: { uid: true, status: true, kind: true, createdAt: true } },
  }),
  savedViews: kind<SavedView>()({
    identity: ['id'],
    check: (view) => {
      text(`saved view ${JSON.stringify(view.id)}'s id`, view.id);
      text(`saved view ${JSON.stringify(view.id)}'s owner`, view.uid);
      text(`saved view ${JSON.stringify(view.id)}'s name`, view.name.trim());
    },
    documents: { collection: 'savedViews', table: 'saved_views', key: 'id', indexes: { uid: true, nameKey: (view) => viewNameKey(view.name) } },
  }),
  // The marker of changes public pages show (./publicChanges.ts): one record, read by every instance's page cache.
  publicChanges: kind<PublicChangeRecord>()({
    identity: ['id'],
    check: (change) => text(`public change ${JSON.stringify(change.id)}'s token`, change.token),
    documents: { collection: 'publicChanges', table: 'public_changes', key: 'id' },
  }),
  // Forecasts before their scores (a score names its forecast).
  forecasts: kind<Forecast>()({
    identity: ['id'],
    check: checkForecast,
    documents: { collection: 'forecasts', table: 'forecasts', key: 'id', indexes: { seriesId: true, endDate: true } },
  }),
  scores: kind<ScoreRecord>()({
    identity: ['forecastId'],
    check: checkScore,
    documents: { collection: 'forecastScores', table: 'forecast_scores', key: 'forecastId', indexes: { seriesId: true } },
  }),
  // The data feed's keys (hash only), their meters and their usage per day (./apiKeys.ts).
  apiKeys: kind<ApiKeyRecord>()({
    identity: ['id'],
    check: (key) => {
      if (!/^[a-z0-9]{12}$/.test(key.id)) throw new RangeError(`not an API key id: ${JSON.stringify(key.id)}`);
      text(`API key ${key.id}'s owner`, key.ownerUid);
      text(`API key ${key.id}'s name`, key.name.trim());
      if (!/^[0-9a-f]{64}$/.test(key.hash)) throw new RangeError(`API key ${key.id}: not a SHA-256 hash`);
      finite(`rate of API key ${key.id}`, key.ratePerMinute);
      finite(`quota of API key ${key.id}`, key.monthlyQuota);
    },
    documents: { collection: 'apiKeys', table: 'api_keys', key: 'id', indexes: { ownerUid: true } },
  }),
  // Team seats and their invitations (./seats.ts), after the users they name.
  seats: kind<SeatRecord>()({
    identity: ['id'],
    check: (seat) => {
      if (!/^[a-z0-9]{16}$/.test(seat.id)) throw new RangeError(`not a seat id: ${JSON.stringify(seat.id)}`);
      text(`seat ${seat.id}'s owner`, seat.ownerUid);
      text(`seat ${seat.id}'s e-mail`, seat.email);
      if (seat.status !== 'pending' && seat.status !== 'held') throw new RangeError(`seat ${seat.id}: status ${JSON.stringify(seat.status)}`);
      if (seat.status === 'held') text(`seat ${seat.id}'s holder`, seat.holderUid);
      else if (!/^[0-9a-f]{64}$/.test(seat.tokenHash ?? '')) throw new RangeError(`seat ${seat.id}: an invitation without a SHA-256 token hash`);
    },
    documents: { collection: 'seats', table: 'seats', key: 'id', indexes: { ownerUid: true } },
  }),
  apiKeyMeters: kind<ApiKeyMeter>()({
    identity: ['keyId'],
    check: (meter) => finite(`month count of API key ${meter.keyId}`, meter.monthCount),
    documents: { collection: 'apiKeyMeters', table: 'api_key_meters', key: 'keyId', indexes: { ownerUid: true } },
  }),
  apiKeyUsage: kind<ApiKeyUsageDay>()({
    identity: ['id'],
    check: (usage) => finite(`requests of ${usage.id}`, usage.requests),
    documents: { collection: 'apiKeyUsage', table: 'api_key_usage', key: 'id', indexes: { ownerUid: true, keyId: true } },
  }),
};

type RecordOf<S> = S extends { readonly record?: infer R } ? R : never;

/** The canonical record of each kind (what `exportRecords` gives and `importRecords` takes). */
export type TransferRecords = { [K in keyof typeof RECORD_KINDS]: RecordOf<(typeof RECORD_KINDS)[K]> };
export type TransferKind = keyof TransferRecords;

/** Every kind, in transfer order. */
export const TRANSFER_KINDS = Object.keys(RECORD_KINDS) as TransferKind[];

/** The registry's entry of a kind. */
export const specOf = <K extends TransferKind>(kind: K): KindSpec<TransferRecords[K]> => RECORD_KINDS[kind] as unknown as KindSpec<TransferRecords[K]>;

export const isTransferKind = (name: string): name is TransferKind => Object.hasOwn(RECORD_KINDS, name);

/** The kinds the shared document layer stores. */
export type DocumentKind = { [K in TransferKind]: (typeof RECORD_KINDS)[K] extends { documents: object } ? K : never }[TransferKind];

/** The document layout of a kind the shared layer stores. */
export const layoutOf = <K extends DocumentKind>(kind: K): DocumentLayout<TransferRecords[K]> => specOf(kind).documents!;

export const isDocumentKind = (kind: TransferKind): kind is DocumentKind => specOf(kind).documents !== undefined;

/**
 * SQLite adapter of the transfer port (`npm run store:copy`). Export walks each table by its key
 * (keyset pages: `WHERE key > last ORDER BY key LIMIT n`, never OFFSET); rowid tables go in
 * rowid order, so creation order survives a copy. Import is one write transaction per call
 * (all of it lands or none of it), every row an upsert by the record's identity.
 */
import type { Client, InValue, Row, Transaction } from '@libsql/client';
import type { AuditEntry } from '../audit.ts';
import type { OrderRecord } from '../payments.ts';
import type { Banner, CityPriceRow, OfferRecord, PointRow, SeriesDef } from '../prices.ts';
import type { PaymentEventRecord, TransferKind, TransferRecords, TransferStore } from '../transfer.ts';
import type { SavedView } from '../savedViews.ts';
import type { UserRecord } from '../users.ts';
import { exportBannerImages, importBannerImages } from './bannerImages.ts';
import { inTransaction } from './database.ts';
import { orderOf } from './payments.ts';
import { toBanner, toCityRow, toOffer, toSeries } from './priceRows.ts';
import { entryOf } from './audit.ts';
import { toSavedView } from './savedViews.ts';
import { lookupColumns } from './users.ts';
import { alertArgs, alertOf, contactArgs, contactOf, LOG_COLUMNS, LOG_UPSERT, logArgs, logOf, settingsArgs, settingsOf } from './delivery.ts';
import { viewNameKey } from '../savedViews.ts';

/** Rows per exported page. */
export const SQLITE_EXPORT_PAGE = 1000;
/** Bound parameters per INSERT (SQLite allows 32766 since 3.32; far below it). */
const PARAMETERS_PER_STATEMENT = 6000;

const json = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

interface KindTable<R> {
  /** The page query: `?` placeholders for the last key's columns, then the limit. */
  readonly firstPage: string;
  readonly nextPage: string;
  /** The key columns of the last row of a page (the next page starts after them). */
  readonly keyOf: (row: Row) => InValue[];
  readonly recordOf: (row: Row) => R;
  readonly insert: string;
  readonly columns: number;
  readonly upsert: string;
  readonly argsOf: (record: R) => InValue[];
  /** Throws on a record that must not be written (checked for all records before any write). */
  readonly check?: (record: R) => void;
}

type TableKind = Exclude<TransferKind, 'bannerImages'>;
type Tables = { [K in TableKind]: KindTable<TransferRecords[K]> };

/** Page queries of a table walked by one or more key columns. */
function pages(table: string, key: readonly string[], select = '*'): Pick<KindTable<unknown>, 'firstPage' | 'nextPage'> {
  const order = key.join(', ');
  const after = key.length === 1 ? `${key[0]} > ?` : `(${order}) > (${key.map(() => '?').join(', ')})`;
  return {
    firstPage: `SELECT ${select} FROM ${table} ORDER BY ${order} LIMIT ?`,
    nextPage: `SELECT ${select} FROM ${table} WHERE ${after} ORDER BY ${order} LIMIT ?`,
  };
}

const finite = (what: string, value: number): void => {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${what}`);
};

const TABLES: Tables = {
  users: {
    ...pages('users', ['rowid'], 'rowid, uid, record'),
    keyOf: (row) => [Number(row['rowid'])],
    recordOf: (row) => ({ ...(JSON.parse(String(row['record'])) as UserRecord), uid: String(row['uid']) }),
    insert: 'INSERT INTO users (uid, email, phone, record)',
    columns: 4,
    upsert: 'ON CONFLICT (uid) DO UPDATE SET email = excluded.email, phone = excluded.phone, record = excluded.record',
    argsOf: (user: UserRecord) => [user.uid, ...lookupColumns(user), JSON.stringify(user)],
    check: (user) => {
      if (typeof user.uid !== 'string' || !user.uid) throw new RangeError('a user record without a uid');
    },
  },
  orders: {
    ...pages('orders', ['rowid'], 'rowid, *'),
    keyOf: (row) => [Number(row['rowid'])],
    recordOf: orderOf,
    insert: `INSERT INTO orders (id, uid, plan, amount, currency, receipt, status, payment_id, signature, failure_reason,
                                 created_at, updated_at)`,
    columns: 12,
    upsert: `ON CONFLICT (id) DO UPDATE SET uid = excluded.uid, plan = excluded.plan, amount = excluded.amount,
               currency = excluded.currency, receipt = excluded.receipt, status = excluded.status,
               payment_id = excluded.payment_id, signature = excluded.signature,
               failure_reason = excluded.failure_reason, created_at = excluded.created_at, updated_at = excluded.updated_at`,
    argsOf: (o: OrderRecord) => [o.id, o.uid, o.plan, o.amount, o.currency, o.receipt, o.status, o.paymentId, o.signature, o.failureReason, o.createdAt, o.updatedAt],
    check: (o) => finite(`amount of order ${o.id}`, o.amount),
  },
  paymentEvents: {
    ...pages('payment_events', ['rowid'], 'rowid, *'),
    keyOf: (row) => [Number(row['rowid'])],
    recordOf: (row): PaymentEventRecord => ({ id: String(row['id']), type: String(row['type']), receivedAt: String(row['received_at']) }),
    insert: 'INSERT INTO payment_events (id, type, received_at)',
    columns: 3,
    upsert: 'ON CONFLICT (id) DO UPDATE SET type = excluded.type, received_at = excluded.received_at',
    argsOf: (e: PaymentEventRecord) => [e.id, e.type, e.receivedAt],
  },
  series: {
    ...pages('price_series', ['id']),
    keyOf: (row) => [String(row['id'])],
    recordOf: toSeries,
    insert: 'INSERT INTO price_series (id, family, product, market, grade, unit, currency, frequency, label)',
    columns: 9,
    upsert: `ON CONFLICT (id) DO UPDATE SET family = excluded.family, product = excluded.product, market = excluded.market,
               grade = excluded.grade, unit = excluded.unit, currency = excluded.currency,
               frequency = excluded.frequency, label = excluded.label`,
    argsOf: (s: SeriesDef) => [s.id, s.family, s.product, s.market, s.grade, s.unit, s.currency, s.frequency, s.label],
  },
  points: {
    ...pages('price_points', ['series_id', 'date']),
    keyOf: (row) => [String(row['series_id']), String(row['date'])],
    recordOf: (row): PointRow => ({ seriesId: String(row['series_id']), date: String(row['date']), value: Number(row['value']) }),
    insert: 'INSERT INTO price_points (series_id, date, value)',
    columns: 3,
    upsert: 'ON CONFLICT (series_id, date) DO UPDATE SET value = excluded.value',
    argsOf: (p: PointRow) => [p.seriesId, p.date, p.value],
    check: (p) => finite(`value of ${p.seriesId} on ${p.date}`, p.value),
  },
  cityPrices: {
    ...pages('city_prices', ['city', 'date', 'grade']),
    keyOf: (row) => [String(row['city']), String(row['date']), String(row['grade'])],
    recordOf: toCityRow,
    insert: 'INSERT INTO city_prices (city, polymer_type, grade, date, price)',
    columns: 5,
    upsert: 'ON CONFLICT (city, date, grade) DO UPDATE SET polymer_type = excluded.polymer_type, price = excluded.price',
    argsOf: (r: CityPriceRow) => [r.city, r.polymerType, r.grade, r.date, r.price],
    check: (r) => finite(`price of ${r.city} ${r.grade} on ${r.date}`, r.price),
  },
  offers: {
    ...pages('international_offers', ['country', 'date']),
    keyOf: (row) => [String(row['country']), String(row['date'])],
    recordOf: toOffer,
    insert: 'INSERT INTO international_offers (country, date, data)',
    columns: 3,
    upsert: 'ON CONFLICT (country, date) DO UPDATE SET data = excluded.data',
    argsOf: (o: OfferRecord) => [o.country, o.date, JSON.stringify(o.data)],
  },
  banners: {
    ...pages('banners', ['sort_order', 'id']),
    keyOf: (row) => [Number(row['sort_order']), String(row['id'])],
    recordOf: toBanner,
    insert: 'INSERT INTO banners (id, title, subtitle, href, image, alt, sort_order)',
    columns: 7,
    upsert: `ON CONFLICT (id) DO UPDATE SET title = excluded.title, subtitle = excluded.subtitle, href = excluded.href,
               image = excluded.image, alt = excluded.alt, sort_order = excluded.sort_order`,
    argsOf: (b: Banner) => [b.id, b.title, b.subtitle, b.href, b.image, b.alt, b.order],
    check: (b) => finite(`order of banner ${b.id}`, b.order),
  },
  audit: {
    ...pages('audit_log', ['id']),
    keyOf: (row) => [Number(row['id'])],
    recordOf: entryOf,
    // An explicit id: AUTOINCREMENT then continues after the highest id written.
    insert: 'INSERT INTO audit_log (id, at, actor_uid, actor_email, action, target, before, after)',
    columns: 8,
    upsert: `ON CONFLICT (id) DO UPDATE SET at = excluded.at, actor_uid = excluded.actor_uid, actor_email = excluded.actor_email,
               action = excluded.action, target = excluded.target, before = excluded.before, after = excluded.after`,
    argsOf: (e: AuditEntry) => [e.id, e.at, e.actor.uid, e.actor.email?.trim().toLowerCase() ?? null, e.action, e.target, json(e.before), json(e.after)],
    check: (e) => {
      if (!Number.isSafeInteger(e.id) || e.id < 1) throw new RangeError(`not an audit id: ${String(e.id)}`);
    },
  },
  deliverySettings: {
    ...pages('delivery_settings', ['uid']),
    keyOf: (row) => [String(row['uid'])],
    recordOf: settingsOf,
    insert: 'INSERT INTO delivery_settings (uid, active, record)',
    columns: 3,
    upsert: 'ON CONFLICT (uid) DO UPDATE SET active = excluded.active, record = excluded.record',
    argsOf: settingsArgs,
  },
  alerts: {
    ...pages('alerts', ['rowid'], 'rowid, record'),
    keyOf: (row) => [Number(row['rowid'])],
    recordOf: alertOf,
    insert: 'INSERT INTO alerts (id, uid, instrument, record)',
    columns: 4,
    upsert: 'ON CONFLICT (id) DO UPDATE SET uid = excluded.uid, instrument = excluded.instrument, record = excluded.record',
    argsOf: alertArgs,
    check: (a) => finite(`value of alert ${a.id}`, a.value),
  },
  whatsappContacts: {
    ...pages('whatsapp_contacts', ['number']),
    keyOf: (row) => [String(row['number'])],
    recordOf: contactOf,
    insert: 'INSERT INTO whatsapp_contacts (number, uid, record)',
    columns: 3,
    upsert: 'ON CONFLICT (number) DO UPDATE SET uid = excluded.uid, record = excluded.record',
    argsOf: contactArgs,
  },
  deliveryLog: {
    ...pages('delivery_log', ['key']),
    keyOf: (row) => [String(row['key'])],
    recordOf: logOf,
    insert: `INSERT INTO delivery_log (${LOG_COLUMNS})`,
    columns: 11,
    upsert: LOG_UPSERT,
    argsOf: logArgs,
  },
  savedViews: {
    ...pages('saved_views', ['id']),
    keyOf: (row) => [String(row['id'])],
    recordOf: toSavedView,
    insert: 'INSERT INTO saved_views (id, uid, name, name_key, query, created_at, updated_at)',
    columns: 7,
    upsert: `ON CONFLICT (id) DO UPDATE SET uid = excluded.uid, name = excluded.name, name_key = excluded.name_key,
               query = excluded.query, created_at = excluded.created_at, updated_at = excluded.updated_at`,
    argsOf: (v: SavedView) => [v.id, v.uid, v.name, viewNameKey(v.name), v.query, v.createdAt, v.updatedAt],
    check: (v) => {
      if (!v.id || !v.uid || !viewNameKey(v.name)) throw new RangeError(`not a saved view: ${JSON.stringify(v.id)}`);
    },
  },
};

async function upsertAll<R>(tx: Transaction, table: KindTable<R>, records: readonly R[]): Promise<void> {
  const perStatement = Math.max(1, Math.floor(PARAMETERS_PER_STATEMENT / table.columns));
  const placeholder = `(${Array.from({ length: table.columns }, () => '?').join(', ')})`;
  for (let i = 0; i < records.length; i += perStatement) {
    const chunk = records.slice(i, i + perStatement);
    await tx.execute({
      sql: `${table.insert} VALUES ${chunk.map(() => placeholder).join(', ')} ${table.upsert}`,
      args: chunk.flatMap((record) => table.argsOf(record)),
    });
  }
}

/**
 * @param written called after every import that wrote (e.g. to bump the price read cache's
 *   version); optional.
 * @param usersWritten called after an import of user records settles (the record cache).
 */
export function createSqliteTransfer(client: Client, written: () => void = () => undefined, usersWritten: () => void = () => undefined): TransferStore {
  return {
    async *exportRecords<K extends TransferKind>(kind: K): AsyncGenerator<readonly TransferRecords[K][]> {
      // Images are exported a few at a time (each up to 2 MiB), by their own module.
      if (kind === 'bannerImages') {
        yield* exportBannerImages(client) as AsyncIterable<readonly TransferRecords[K][]>;
        return;
      }
      const table = TABLES[kind as TableKind] as unknown as KindTable<TransferRecords[K]>;
      let last: InValue[] | null = null;
      for (;;) {
        const result = await client.execute(
          last === null
            ? { sql: table.firstPage, args: [SQLITE_EXPORT_PAGE] }
            : { sql: table.nextPage, args: [...last, SQLITE_EXPORT_PAGE] },
        );
        if (result.rows.length > 0) yield result.rows.map(table.recordOf);
        if (result.rows.length < SQLITE_EXPORT_PAGE) return;
        last = table.keyOf(result.rows[result.rows.length - 1]!);
      }
    },

    async importRecords<K extends TransferKind>(kind: K, records: readonly TransferRecords[K][]): Promise<number> {
      if (kind === 'bannerImages') return importBannerImages(client, records as readonly TransferRecords['bannerImages'][]);
      const table = TABLES[kind as TableKind] as unknown as KindTable<TransferRecords[K]>;
      if (table.check) for (const record of records) table.check(record);
      if (records.length === 0) return 0;
      try {
        await inTransaction(client, (tx) => upsertAll(tx, table, records));
      } finally {
        written();
        if (kind === 'users') usersWritten();
      }
      return records.length;
    },
  };
}

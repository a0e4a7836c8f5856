/**
 * The SQLite adapter's own kinds of `npm run store:copy` (the document kinds move through
 * ./documents.ts): the price tables, walked by their keys (keyset pages, never OFFSET) and
 * written in one transaction per call as upserts by identity; banner images and posts by
 * their own modules.
 */
import type { Client, InValue, ResultSet, Row, Transaction } from '@libsql/client';
import type { OwnKind, PartialTransfer } from '../documents/transfer.ts';
import type { TransferRecords } from '../kinds.ts';
import type { Banner, CityPriceRow, OfferRecord, PointRow, SeriesDef } from '../prices.ts';
import { exportBannerImages, importBannerImages } from './bannerImages.ts';
import { inTransaction } from './database.ts';
import { PARAMETERS_PER_STATEMENT, SQLITE_EXPORT_PAGE } from './documents.ts';
import { exportPosts, importPosts } from './posts.ts';
import { rangeOfRow, rangesColumn, toBanner, toCityRow, toOffer, toSeries } from './priceRows.ts';

interface PriceTable<R> {
  readonly table: string;
  /** The key columns pages walk. */
  readonly key: readonly string[];
  readonly recordOf: (row: Row) => R;
  readonly columns: readonly string[];
  readonly conflict: string;
  readonly argsOf: (record: R) => InValue[];
}

type PriceKind = 'series' | 'points' | 'cityPrices' | 'offers' | 'banners';

const TABLES: { [K in PriceKind]: PriceTable<TransferRecords[K]> } = {
  series: {
    table: 'price_series',
    key: ['id'],
    recordOf: toSeries,
    columns: ['id', 'family', 'product', 'market', 'grade', 'unit', 'currency', 'frequency', 'label'],
    conflict: 'id',
    argsOf: (s: SeriesDef) => [s.id, s.family, s.product, s.market, s.grade, s.unit, s.currency, s.frequency, s.label],
  },
  points: {
    table: 'price_points',
    key: ['series_id', 'date'],
    recordOf: (row): PointRow => ({ seriesId: String(row['series_id']), date: String(row['date']), value: Number(row['value']), ...rangeOfRow(row) }),
    columns: ['series_id', 'date', 'value', 'low', 'high'],
    conflict: 'series_id, date',
    argsOf: (p: PointRow) => [p.seriesId, p.date, p.value, p.low ?? null, p.high ?? null],
  },
  cityPrices: {
    table: 'city_prices',
    key: ['city', 'date', 'grade'],
    recordOf: toCityRow,
    columns: ['city', 'polymer_type', 'grade', 'date', 'price', 'low', 'high'],
    conflict: 'city, date, grade',
    argsOf: (r: CityPriceRow) => [r.city, r.polymerType, r.grade, r.date, r.price, r.low ?? null, r.high ?? null],
  },
  offers: {
    table: 'international_offers',
    key: ['country', 'date'],
    recordOf: toOffer,
    columns: ['country', 'date', 'data', 'ranges'],
    conflict: 'country, date',
    argsOf: (o: OfferRecord) => [o.country, o.date, JSON.stringify(o.data), rangesColumn(o)],
  },
  banners: {
    table: 'banners',
    key: ['sort_order', 'id'],
    recordOf: toBanner,
    columns: ['id', 'title', 'subtitle', 'href', 'image', 'alt', 'sort_order'],
    conflict: 'id',
    argsOf: (b: Banner) => [b.id, b.title, b.subtitle, b.href, b.image, b.alt, b.order],
  },
};

async function* exportTable<R>(client: Client, table: PriceTable<R>): AsyncIterable<readonly R[]> {
  const order = table.key.join(', ');
  const after = table.key.length === 1 ? `${table.key[0]} > ?` : `(${order}) > (${table.key.map(() => '?').join(', ')})`;
  let last: InValue[] | null = null;
  for (;;) {
    const result: ResultSet = await client.execute(
      last === null
        ? { sql: `SELECT * FROM ${table.table} ORDER BY ${order} LIMIT ?`, args: [SQLITE_EXPORT_PAGE] }
        : { sql: `SELECT * FROM ${table.table} WHERE ${after} ORDER BY ${order} LIMIT ?`, args: [...last, SQLITE_EXPORT_PAGE] },
    );
    if (result.rows.length > 0) yield result.rows.map(table.recordOf);
    if (result.rows.length < SQLITE_EXPORT_PAGE) return;
    const row: Row = result.rows[result.rows.length - 1]!;
    last = table.key.map((column): InValue => row[column] ?? null);
  }
}

async function upsertAll<R>(tx: Transaction, table: PriceTable<R>, records: readonly R[]): Promise<void> {
  const perStatement = Math.max(1, Math.floor(PARAMETERS_PER_STATEMENT / table.columns.length));
  const placeholder = `(${table.columns.map(() => '?').join(', ')})`;
  const set = table.columns.map((c) => `${c} = excluded.${c}`).join(', ');
  for (let i = 0; i < records.length; i += perStatement) {
    const chunk = records.slice(i, i + perStatement);
    await tx.execute({
      sql: `INSERT INTO ${table.table} (${table.columns.join(', ')}) VALUES ${chunk.map(() => placeholder).join(', ')} ON CONFLICT (${table.conflict}) DO UPDATE SET ${set}`,
      args: chunk.flatMap((record) => table.argsOf(record)),
    });
  }
}

export function createSqliteOwnTransfer(client: Client): PartialTransfer<OwnKind> {
  return {
    exportRecords<K extends OwnKind>(kind: K): AsyncIterable<readonly TransferRecords[K][]> {
      // Images a few at a time (each up to 2 MiB), posts with their slugs: their own modules.
      if (kind === 'bannerImages') return exportBannerImages(client) as AsyncIterable<readonly TransferRecords[K][]>;
      if (kind === 'posts') return exportPosts(client) as AsyncIterable<readonly TransferRecords[K][]>;
      return exportTable(client, TABLES[kind as PriceKind] as unknown as PriceTable<TransferRecords[K]>);
    },
    async importRecords<K extends OwnKind>(kind: K, records: readonly TransferRecords[K][]): Promise<number> {
      if (kind === 'bannerImages') return importBannerImages(client, records as readonly TransferRecords['bannerImages'][]);
      if (kind === 'posts') return importPosts(client, records as readonly TransferRecords['posts'][]);
      if (records.length === 0) return 0;
      await inTransaction(client, (tx) => upsertAll(tx, TABLES[kind as PriceKind] as unknown as PriceTable<TransferRecords[K]>, records));
      return records.length;
    },
  };
}

/**
 * SQLite adapter of the price store. Points are keyed (series_id, date) — the primary key is
 * the range index a chart read walks — and written with multi-row VALUES in one transaction.
 */
import type { Client, InValue, Transaction } from '@libsql/client';
import type { BannerAdminStore } from '../bannerAdmin.ts';
import type { PriceAdminStore } from '../priceAdmin.ts';
import type { PriceStore } from '../prices.ts';
import { checkDate, checkOffer, checkQuote } from '../checks.ts';
import { inTransaction, type Migration } from './database.ts';
import { createSqliteBannerAdminStore } from './bannerAdmin.ts';
import { createSqlitePriceAdminStore } from './priceAdmin.ts';
import { rangesColumn, toBanner, toCityRow, toOffer, toPoint, toSeries } from './priceRows.ts';

export const priceMigrations: readonly Migration[] = [
  {
    id: 'prices-001',
    statements: [
      `CREATE TABLE price_series (
         id TEXT PRIMARY KEY,
         family TEXT NOT NULL,
         product TEXT NOT NULL,
         market TEXT NOT NULL,
         grade TEXT NOT NULL DEFAULT '',
         unit TEXT NOT NULL,
         currency TEXT NOT NULL,
         frequency TEXT NOT NULL,
         label TEXT NOT NULL
       )`,
      'CREATE INDEX price_series_family ON price_series (family, product, market)',
      `CREATE TABLE price_points (
         series_id TEXT NOT NULL REFERENCES price_series (id) ON DELETE CASCADE,
         date TEXT NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
         value REAL NOT NULL,
         PRIMARY KEY (series_id, date)
       ) WITHOUT ROWID`,
      `CREATE TABLE city_prices (
         city TEXT NOT NULL,
         polymer_type TEXT NOT NULL,
         grade TEXT NOT NULL,
         date TEXT NOT NULL,
         price REAL NOT NULL,
         PRIMARY KEY (city, date, grade)
       ) WITHOUT ROWID`,
      `CREATE TABLE international_offers (
         country TEXT NOT NULL,
         date TEXT NOT NULL,
         data TEXT NOT NULL CHECK (json_valid(data)),
         PRIMARY KEY (country, date)
       ) WITHOUT ROWID`,
      `CREATE TABLE banners (
         id TEXT PRIMARY KEY,
         title TEXT NOT NULL,
         subtitle TEXT NOT NULL,
         href TEXT NOT NULL,
         image TEXT NOT NULL,
         alt TEXT NOT NULL,
         sort_order INTEGER NOT NULL
       )`,
    ],
  },
  {
    // Ranges (issue 20): a range-quoted price keeps its low and high; `value` / `price` is their
    // mid (src/lib/quotes.ts). NULL for a single price and for every row written before.
    id: 'prices-002',
    statements: [
      'ALTER TABLE price_points ADD COLUMN low REAL',
      'ALTER TABLE price_points ADD COLUMN high REAL',
      'ALTER TABLE city_prices ADD COLUMN low REAL',
      'ALTER TABLE city_prices ADD COLUMN high REAL',
    ],
  },
  {
    // Offers as ranges (issue 20): a day's range cells as JSON `{group:{grade:{low, high}}}`, their
    // mids in `data` as before. NULL for a day of single values and every row written before.
    id: 'prices-003',
    statements: ['ALTER TABLE international_offers ADD COLUMN ranges TEXT CHECK (ranges IS NULL OR json_valid(ranges))'],
  },
];

/** Rows per INSERT: 4 parameters each stays far below SQLite's variable limit. */
const CHUNK = 400;

type Executor = Pick<Transaction, 'execute'>;

async function insertChunked<T>(
  tx: Executor,
  rows: readonly T[],
  head: string,
  placeholder: string,
  tail: string,
  args: (row: T) => InValue[],
): Promise<number> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    await tx.execute({
      sql: `${head} VALUES ${chunk.map(() => placeholder).join(',')} ${tail}`,
      args: chunk.flatMap(args),
    });
  }
  return rows.length;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

export function createSqlitePriceStore(client: Client): PriceStore & PriceAdminStore & BannerAdminStore {
  let version = 0;
  /** Bumps the version after a write commits (and also after a failed one: cheap and safe). */
  const writing = async <T>(work: Promise<T>): Promise<T> => {
    try {
      return await work;
    } finally {
      version++;
    }
  };
  const bump = () => {
    version++;
  };
  return {
    ...createSqlitePriceAdminStore(client, bump),
    ...createSqliteBannerAdminStore(client, bump),
    version: () => version,

    async upsertSeries(series) {
      if (series.length === 0) return;
      await writing(inTransaction(client, (tx) =>
        insertChunked(
          tx,
          series,
          'INSERT INTO price_series (id, family, product, market, grade, unit, currency, frequency, label)',
          '(?, ?, ?, ?, ?, ?, ?, ?, ?)',
          `ON CONFLICT (id) DO UPDATE SET family = excluded.family, product = excluded.product, market = excluded.market,
             grade = excluded.grade, unit = excluded.unit, currency = excluded.currency,
             frequency = excluded.frequency, label = excluded.label`,
          (s) => [s.id, s.family, s.product, s.market, s.grade, s.unit, s.currency, s.frequency, s.label],
        ),
      ));
    },

    async getSeries(id) {
      const result = await client.execute({ sql: 'SELECT * FROM price_series WHERE id = ?', args: [id] });
      const row = result.rows[0];
      return row ? toSeries(row) : null;
    },

    async listSeries() {
      return (await client.execute('SELECT * FROM price_series ORDER BY id')).rows.map(toSeries);
    },

    async upsertPoints(rows) {
      for (const row of rows) {
        checkQuote(row, `${row.seriesId} on ${row.date}`);
        checkDate(row.date, row.seriesId);
      }
      if (rows.length === 0) return 0;
      return writing(inTransaction(client, (tx) =>
        insertChunked(
          tx,
          rows,
          'INSERT INTO price_points (series_id, date, value, low, high)',
          '(?, ?, ?, ?, ?)',
          'ON CONFLICT (series_id, date) DO UPDATE SET value = excluded.value, low = excluded.low, high = excluded.high',
          (r) => [r.seriesId, r.date, r.value, r.low ?? null, r.high ?? null],
        ),
      ));
    },

    async points(seriesId, range = {}) {
      const result = await client.execute({
        sql: 'SELECT date, value, low, high FROM price_points WHERE series_id = ? AND date >= ? AND date <= ? ORDER BY date',
        args: [seriesId, range.from ?? '0000-00-00', range.to ?? '9999-99-99'],
      });
      return result.rows.map(toPoint);
    },

    async latestPoints(seriesId, count) {
      const result = await client.execute({
        sql: 'SELECT date, value, low, high FROM price_points WHERE series_id = ? ORDER BY date DESC LIMIT ?',
        args: [seriesId, Math.max(0, Math.floor(count))],
      });
      return result.rows.map(toPoint).reverse();
    },

    async extent(seriesId) {
      const result = await client.execute({
        sql: 'SELECT MIN(date) AS first, MAX(date) AS last, COUNT(*) AS count FROM price_points WHERE series_id = ?',
        args: [seriesId],
      });
      const row = result.rows[0];
      if (!row || row['first'] === null) return null;
      return { first: String(row['first']), last: String(row['last']), count: Number(row['count']) };
    },

    async upsertCityPrices(rows) {
      for (const r of rows) {
        checkDate(r.date, `city ${r.city}`);
        checkQuote({ value: r.price, low: r.low, high: r.high }, `${r.city} ${r.grade} on ${r.date}`);
      }
      if (rows.length === 0) return 0;
      return writing(inTransaction(client, (tx) =>
        insertChunked(
          tx,
          rows,
          'INSERT INTO city_prices (city, polymer_type, grade, date, price, low, high)',
          '(?, ?, ?, ?, ?, ?, ?)',
          'ON CONFLICT (city, date, grade) DO UPDATE SET polymer_type = excluded.polymer_type, price = excluded.price, low = excluded.low, high = excluded.high',
          (r) => [r.city, r.polymerType, r.grade, r.date, r.price, r.low ?? null, r.high ?? null],
        ),
      ));
    },

    async latestCitySheets() {
      const result = await client.execute(
        `SELECT c.* FROM city_prices c
           JOIN (SELECT city, MAX(date) AS date FROM city_prices GROUP BY city) latest
             ON latest.city = c.city AND latest.date = c.date
         ORDER BY c.city, c.polymer_type, c.grade`,
      );
      return result.rows.map(toCityRow);
    },

    async latestCitySheet(city) {
      const result = await client.execute({
        sql: `SELECT * FROM city_prices
               WHERE city = ? AND date = (SELECT MAX(date) FROM city_prices WHERE city = ?)
               ORDER BY polymer_type, grade`,
        args: [city, city],
      });
      return result.rows.map(toCityRow);
    },

    async citySheetOn(city, date) {
      const result = await client.execute({
        sql: 'SELECT * FROM city_prices WHERE city = ? AND date = ? ORDER BY polymer_type, grade',
        args: [city, date],
      });
      return result.rows.map(toCityRow);
    },

    async citySheetDates(city, range) {
      const result = await client.execute({
        sql: 'SELECT DISTINCT date FROM city_prices WHERE city = ? AND date >= ? AND date <= ? ORDER BY date',
        args: [city, range.from ?? '0000-00-00', range.to ?? '9999-99-99'],
      });
      return result.rows.map((row) => String(row['date']));
    },

    async cityGradeHistory(grade, cities, range) {
      if (cities.length === 0) return [];
      const result = await client.execute({
        sql: `SELECT * FROM city_prices WHERE city IN (${cities.map(() => '?').join(', ')}) AND grade = ? AND date >= ? AND date <= ?
               ORDER BY date, city`,
        args: [...cities, grade, range.from ?? '0000-00-00', range.to ?? '9999-99-99'],
      });
      return result.rows.map(toCityRow);
    },

    async upsertOffers(offers) {
      const days = offers.map((o) => {
        checkDate(o.date, `offers of ${o.country}`);
        return { country: o.country, date: o.date, ...checkOffer(o, `offers of ${o.country} on ${o.date}`) };
      });
      if (days.length === 0) return 0;
      return writing(inTransaction(client, (tx) =>
        insertChunked(
          tx,
          days,
          'INSERT INTO international_offers (country, date, data, ranges)',
          '(?, ?, ?, ?)',
          'ON CONFLICT (country, date) DO UPDATE SET data = excluded.data, ranges = excluded.ranges',
          (o) => [o.country, o.date, JSON.stringify(o.data), rangesColumn(o)],
        ),
      ));
    },

    async offersInMonth(country, year, month) {
      const prefix = `${String(year).padStart(4, '0')}-${pad2(month)}`;
      const result = await client.execute({
        sql: 'SELECT * FROM international_offers WHERE country = ? AND date >= ? AND date <= ? ORDER BY date',
        args: [country, `${prefix}-01`, `${prefix}-31`],
      });
      return result.rows.map(toOffer);
    },

    async latestOfferMonth(country) {
      const result = await client.execute({
        sql: 'SELECT MAX(date) AS date FROM international_offers WHERE country = ?',
        args: [country],
      });
      const date = result.rows[0]?.['date'];
      if (date === null || date === undefined) return null;
      const text = String(date);
      return { year: Number(text.slice(0, 4)), month: Number(text.slice(5, 7)) };
    },

    async replaceBanners(banners) {
      await writing(inTransaction(client, async (tx) => {
        await tx.execute('DELETE FROM banners');
        if (banners.length === 0) return;
        await insertChunked(
          tx,
          banners,
          'INSERT INTO banners (id, title, subtitle, href, image, alt, sort_order)',
          '(?, ?, ?, ?, ?, ?, ?)',
          '',
          (b) => [b.id, b.title, b.subtitle, b.href, b.image, b.alt, b.order],
        );
      }));
    },

    async listBanners() {
      return (await client.execute('SELECT * FROM banners ORDER BY sort_order, id')).rows.map(toBanner);
    },

    async hasNoPrices() {
      const result = await client.execute('SELECT 1 FROM price_points LIMIT 1');
      return result.rows.length === 0;
    },
  };
}

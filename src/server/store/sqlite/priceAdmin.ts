/** SQLite adapter of the audited admin price writes (see ../priceAdmin.ts). */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Client, InValue, Transaction } from '@libsql/client';
import { priceAuditEntry, sameOfferDay, type ImportResult, type PriceAdminStore, type PointEditResult } from '../priceAdmin.ts';
import type { OfferData, OfferDay } from '../prices.ts';
import type { Quote } from '../../../lib/priceTypes.ts';
import { quoteFields, sameQuote } from '../../../lib/quotes.ts';
import { checkDate, checkOffer, checkQuote } from '../checks.ts';
import { offerRangesOfRow, rangeOfRow, rangesColumn } from './priceRows.ts';
import { insertAuditEntry } from './audit.ts';
import { inTransaction, notifyingAfter } from './database.ts';

type Reader = Pick<Transaction, 'execute'>;

async function currentQuote(tx: Reader, seriesId: string, date: string): Promise<Quote | null> {
  const row = (await tx.execute({ sql: 'SELECT value, low, high FROM price_points WHERE series_id = ? AND date = ?', args: [seriesId, date] })).rows[0];
  return row ? { value: Number(row['value']), ...rangeOfRow(row) } : null;
}

/** Rows read per query by storedValues: a few milliseconds of work between turns of the event loop. */
const READ_PAGE = 500;

/** Stored values of the given series, keyed `series date`, read a page at a time (by the primary key). */
async function storedValues(tx: Reader, seriesIds: readonly string[]): Promise<Map<string, Quote>> {
  const values = new Map<string, Quote>();
  for (const id of seriesIds) {
    let after = '';
    for (;;) {
      const result = await tx.execute({ sql: 'SELECT date, value, low, high FROM price_points WHERE series_id = ? AND date > ? ORDER BY date LIMIT ?', args: [id, after, READ_PAGE] });
      for (const row of result.rows) values.set(`${id} ${String(row['date'])}`, { value: Number(row['value']), ...rangeOfRow(row) });
      await nextTurn();
      if (result.rows.length < READ_PAGE) break;
      after = String(result.rows.at(-1)!['date']);
    }
  }
  return values;
}

/** Rows per INSERT of an import: a few milliseconds each, with a turn of the event loop between. */
const CHUNK = 200;

/** `written` is called after every committed write (the price store's cache version). */
export function createSqlitePriceAdminStore(client: Client, written: () => void): PriceAdminStore {
  const committed = notifyingAfter(written);
  return {
    async adminSetPoint({ seriesId, date, value, low, high, expected, actor, now }) {
      const quote = quoteFields({ value, low, high });
      checkQuote(quote, `${seriesId} on ${date}`);
      checkDate(date, seriesId);
      return committed(inTransaction(client, async (tx): Promise<PointEditResult> => {
        const current = await currentQuote(tx, seriesId, date);
        if ((current?.value ?? null) !== expected) return { kind: 'conflict', current: current?.value ?? null };
        if (sameQuote(current, quote)) return { kind: 'unchanged' };
        await tx.execute({
          sql: `INSERT INTO price_points (series_id, date, value, low, high) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (series_id, date) DO UPDATE SET value = excluded.value, low = excluded.low, high = excluded.high`,
          args: [seriesId, date, quote.value, quote.low ?? null, quote.high ?? null],
        });
        const before = current === null ? null : { date, ...current };
        const after = { date, ...quote };
        const entry = await insertAuditEntry(tx, priceAuditEntry.pointSet(seriesId, date, current, quote, { actor, now }));
        return { kind: 'written', before, after, entry };
      }));
    },

    async adminSetCityPrice({ city, date, polymerType, grade, price, low, high, expected, actor, now }) {
      checkDate(date, `city ${city}`);
      const quote = price === null ? null : quoteFields({ value: price, low, high });
      if (quote) checkQuote(quote, `${city} ${grade} on ${date}`);
      return committed(inTransaction(client, async (tx): Promise<PointEditResult> => {
        const rows = await tx.execute({ sql: 'SELECT price, low, high FROM city_prices WHERE city = ? AND date = ? AND grade = ?', args: [city, date, grade] });
        const row = rows.rows[0];
        const current: Quote | null = row ? { value: Number(row['price']), ...rangeOfRow(row) } : null;
        if ((current?.value ?? null) !== expected) return { kind: 'conflict', current: current?.value ?? null };
        if (sameQuote(current, quote)) return { kind: 'unchanged' };
        if (quote === null) {
          await tx.execute({ sql: 'DELETE FROM city_prices WHERE city = ? AND date = ? AND grade = ?', args: [city, date, grade] });
        } else {
          await tx.execute({
            sql: `INSERT INTO city_prices (city, polymer_type, grade, date, price, low, high) VALUES (?, ?, ?, ?, ?, ?, ?)
                  ON CONFLICT (city, date, grade) DO UPDATE SET price = excluded.price, low = excluded.low, high = excluded.high, polymer_type = excluded.polymer_type`,
            args: [city, polymerType, grade, date, quote.value, quote.low ?? null, quote.high ?? null],
          });
        }
        const before = current === null ? null : { date, ...current };
        const after = quote === null ? null : { date, ...quote };
        const entry = await insertAuditEntry(tx, priceAuditEntry.cityPrice(city, date, grade, current, quote, { actor, now }));
        return { kind: 'written', before, after, entry };
      }));
    },

    async adminSetOffers({ country, date, data, ranges, actor, now }) {
      checkDate(date, `offers of ${country}`);
      const day = checkOffer({ data, ranges }, `offers of ${country} on ${date}`);
      return committed(inTransaction(client, async (tx) => {
        const rows = await tx.execute({ sql: 'SELECT data, ranges FROM international_offers WHERE country = ? AND date = ?', args: [country, date] });
        const row = rows.rows[0];
        const before: OfferDay | null = row ? { data: JSON.parse(String(row['data'])) as OfferData, ...offerRangesOfRow(row) } : null;
        if (before !== null && sameOfferDay(before, day)) return { kind: 'unchanged' as const };
        await tx.execute({
          sql: 'INSERT INTO international_offers (country, date, data, ranges) VALUES (?, ?, ?, ?) ON CONFLICT (country, date) DO UPDATE SET data = excluded.data, ranges = excluded.ranges',
          args: [country, date, JSON.stringify(day.data), rangesColumn(day)],
        });
        const entry = await insertAuditEntry(tx, priceAuditEntry.offers(country, date, before, day, { actor, now }));
        return { kind: 'written' as const, entry };
      }));
    },

    async adminDeletePoint({ seriesId, date, expected, actor, now }) {
      return committed(inTransaction(client, async (tx): Promise<PointEditResult> => {
        const current = await currentQuote(tx, seriesId, date);
        if (current === null || current.value !== expected) return { kind: 'conflict', current: current?.value ?? null };
        await tx.execute({ sql: 'DELETE FROM price_points WHERE series_id = ? AND date = ?', args: [seriesId, date] });
        const before = { date, ...current };
        const entry = await insertAuditEntry(tx, priceAuditEntry.pointDelete(seriesId, date, current, { actor, now }));
        return { kind: 'written', before, after: null, entry };
      }));
    },

    async adminImportPoints({ rows, actor, now, dryRun }) {
      for (const r of rows) {
        checkQuote(r, `${r.series} on ${r.date}`);
        checkDate(r.date, r.series);
      }
      const run = async (tx: Reader, write: Transaction | null): Promise<ImportResult> => {
        const seriesIds = [...new Set(rows.map((r) => r.series))].sort();
        const stored = await storedValues(tx, seriesIds);
        const changedRows: typeof rows[number][] = [];
        for (let i = 0; i < rows.length; i++) {
          if (i > 0 && i % 5_000 === 0) await nextTurn();
          const r = rows[i]!;
          if (!sameQuote(stored.get(`${r.series} ${r.date}`), r)) changedRows.push(r);
        }
        const bySeries: Record<string, { rows: number; changed: number }> = {};
        for (const id of seriesIds) bySeries[id] = { rows: 0, changed: 0 };
        for (const r of rows) bySeries[r.series]!.rows++;
        for (const r of changedRows) bySeries[r.series]!.changed++;
        if (!write || changedRows.length === 0) return { rows: rows.length, changed: changedRows.length, bySeries, entry: null };
        // One transaction (all or nothing), written a chunk at a time with a turn of the event
        // loop between chunks: the local driver is synchronous, and readers (other connections,
        // WAL) must not wait for a 100,000-row import to finish.
        for (let i = 0; i < changedRows.length; i += CHUNK) {
          if (i > 0) await nextTurn();
          const chunk = changedRows.slice(i, i + CHUNK);
          await write.execute({
            sql: `INSERT INTO price_points (series_id, date, value, low, high) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?)').join(',')}
                  ON CONFLICT (series_id, date) DO UPDATE SET value = excluded.value, low = excluded.low, high = excluded.high`,
            args: chunk.flatMap((r): InValue[] => [r.series, r.date, r.value, r.low ?? null, r.high ?? null]),
          });
        }
        const entry = await insertAuditEntry(write, priceAuditEntry.import(rows.length, changedRows.length, bySeries, { actor, now }));
        return { rows: rows.length, changed: changedRows.length, bySeries, entry };
      };
      if (dryRun) return run(client, null);
      return committed(inTransaction(client, (tx) => run(tx, tx)));
    },

    async latestDates() {
      const result = await client.execute('SELECT series_id, MAX(date) AS last FROM price_points GROUP BY series_id');
      return new Map(result.rows.map((row) => [String(row['series_id']), String(row['last'])]));
    },
  };
}

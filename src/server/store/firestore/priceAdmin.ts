/**
 * Firestore adapter of the audited admin price writes (see ../priceAdmin.ts), on the layout of
 * ./priceDocs.ts. Each write is one transaction: `auditWriterIn` is read first, every other
 * read follows, then the audit entry is the first write and the documents follow (a point's
 * year document and its series summary; a city's date document and its newest-sheet copy; an
 * offer month document).
 *
 * `adminImportPoints` is one transaction with its audit entry while the import touches at most
 * DOCS_PER_COMMIT documents (year documents + series documents + the entry and its counter).
 * A bigger import is checked against the stored values first (outside a transaction), then
 * its changed points are written in transactions of that size, and the single audit entry is
 * written with the last one. A failure part-way leaves the earlier parts written without an
 * entry; the import is an idempotent upsert, so running it again writes the rest and records
 * the entry (counting only what was still different).
 */
import type { DocumentSnapshot, Firestore, Transaction } from 'firebase-admin/firestore';
import type { AuditEntry } from '../audit.ts';
import { priceAuditEntry, sameOfferDay, type ImportPointRow, type ImportResult, type PointEditResult, type PriceAdminStore } from '../priceAdmin.ts';
import { auditWriterIn } from './audit.ts';
import { checkDate, checkOffer, checkQuote } from '../checks.ts';
import type { Quote } from '../../../lib/priceTypes.ts';
import { quoteFields, sameQuote } from '../../../lib/quotes.ts';
import { DOCS_PER_COMMIT, chunks, docId, transact } from './database.ts';
import {
  CITY_DATES,
  SERIES,
  YEARS,
  checkPointRows,
  cityDateDocOf,
  cityDateRef,
  cityDocOf,
  cityRef,
  countryRef,
  monthDays,
  monthDocOf,
  monthKey,
  monthRef,
  planDocs,
  planPoints,
  readPlan,
  seriesDefOf,
  seriesDocOf,
  seriesRef,
  sheetRowsOf,
  sortedSheet,
  splitPlan,
  summaryOf,
  usableId,
  writePlan,
  yearDocOf,
  yearOf,
  yearPoints,
  yearRef,
  type PlanState,
  type PointPlan,
  type SheetRow,
} from './priceDocs.ts';

/** Documents of the audit entry itself: the entry and the counter. */
const AUDIT_DOCS = 2;

type ImportRow = ImportPointRow;

const keyOf = (series: string, date: string): string => `${series} ${date}`;

/** Stored values of the (series, year) documents the rows fall in, keyed `series date`. */
async function storedValuesOf(db: Firestore, rows: readonly ImportRow[], tx?: Transaction): Promise<Map<string, Quote>> {
  const units = new Map<string, { series: string; year: number }>();
  for (const r of rows) {
    const year = yearOf(r.date);
    if (!usableId(r.series) || !Number.isInteger(year) || year < 0) continue;
    units.set(`${r.series} ${year}`, { series: r.series, year });
  }
  const values = new Map<string, Quote>();
  for (const part of chunks([...units.values()], DOCS_PER_COMMIT)) {
    const refs = part.map((u) => yearRef(db, u.series, u.year));
    const snapshots = tx ? await tx.getAll(...refs) : await db.getAll(...refs);
    part.forEach((u, i) => {
      for (const [date, value] of yearPoints(snapshots[i])) values.set(keyOf(u.series, date), value);
    });
  }
  return values;
}

function tally(rows: readonly ImportRow[], stored: ReadonlyMap<string, Quote>) {
  const seriesIds = [...new Set(rows.map((r) => r.series))].sort();
  const changedRows = rows.filter((r) => !sameQuote(stored.get(keyOf(r.series, r.date)), quoteFields(r)));
  const bySeries: Record<string, { rows: number; changed: number }> = {};
  for (const id of seriesIds) bySeries[id] = { rows: 0, changed: 0 };
  for (const r of rows) bySeries[r.series]!.rows++;
  for (const r of changedRows) bySeries[r.series]!.changed++;
  return { changedRows, bySeries };
}

const planOf = (rows: readonly ImportRow[]): PointPlan => planPoints(rows.map((r) => ({ seriesId: r.series, date: r.date, value: r.value, low: r.low, high: r.high })));

/** `written` is called after every settled write (the price store's cache version). */
export function createFirestorePriceAdminStore(db: Firestore, written: () => void): PriceAdminStore {
  const committed = async <T>(work: Promise<T>): Promise<T> => {
    try {
      return await work;
    } finally {
      written();
    }
  };

  /** The series and year documents of one point, read in `tx`. */
  async function readPoint(tx: Transaction, seriesId: string, date: string): Promise<{ series: DocumentSnapshot; stored: Map<string, Quote> }> {
    const [series, year] = await tx.getAll(seriesRef(db, seriesId), yearRef(db, seriesId, yearOf(date)));
    return { series: series!, stored: yearPoints(year) };
  }

  return {
    adminSetPoint({ seriesId, date, value, low, high, expected, actor, now }) {
      const quote = quoteFields({ value, low, high });
      checkQuote(quote, `${seriesId} on ${date}`);
      return committed(transact(db, async (tx): Promise<PointEditResult> => {
        checkDate(date, seriesId);
        docId(seriesId);
        const write = await auditWriterIn(db, tx);
        const { series, stored } = await readPoint(tx, seriesId, date);
        const current = stored.get(date) ?? null;
        if ((current?.value ?? null) !== expected) return { kind: 'conflict', current: current?.value ?? null };
        if (sameQuote(current, quote)) return { kind: 'unchanged' };
        if (!series.exists) throw new Error(`FOREIGN KEY constraint failed: no series ${JSON.stringify(seriesId)}`);
        const before = current === null ? null : { date, ...current };
        const after = { date, ...quote };
        const entry = write(priceAuditEntry.pointSet(seriesId, date, current, quote, { actor, now }));
        const year = yearOf(date);
        const state: PlanState = { series: new Map([[seriesId, series]]), years: new Map([[seriesId, new Map([[year, stored]])]]) };
        writePlan(db, tx, new Map([[seriesId, new Map([[year, new Map([[date, quote]])]])]]), state);
        return { kind: 'written', before, after, entry };
      }));
    },

    adminDeletePoint({ seriesId, date, expected, actor, now }) {
      return committed(transact(db, async (tx): Promise<PointEditResult> => {
        if (!usableId(seriesId) || !Number.isInteger(yearOf(date))) return { kind: 'conflict', current: null };
        const write = await auditWriterIn(db, tx);
        const { series, stored } = await readPoint(tx, seriesId, date);
        const current = stored.get(date) ?? null;
        if (current === null || current.value !== expected) return { kind: 'conflict', current: current?.value ?? null };
        const year = yearOf(date);
        stored.delete(date);
        const old = summaryOf(series.data());
        const years = seriesRef(db, seriesId).collection(YEARS);
        // The series' ends move when this was its first or last point; when its year is left
        // empty, the neighbouring year document holds the new end (read before any write).
        const sorted = [...stored.keys()].sort();
        let first = old.first;
        let last = old.last;
        if (date === old.first) {
          if (sorted.length > 0) first = sorted[0]!;
          else first = ((await tx.get(years.where('year', '>', year).orderBy('year', 'asc').limit(1))).docs[0]?.get('first') as string | undefined) ?? null;
        }
        if (date === old.last) {
          if (sorted.length > 0) last = sorted.at(-1)!;
          else last = ((await tx.get(years.where('year', '<', year).orderBy('year', 'desc').limit(1))).docs[0]?.get('last') as string | undefined) ?? null;
        }
        const before = { date, ...current };
        const entry = write(priceAuditEntry.pointDelete(seriesId, date, current, { actor, now }));
        if (stored.size === 0) tx.delete(yearRef(db, seriesId, year));
        else tx.set(yearRef(db, seriesId, year), yearDocOf(seriesId, year, stored));
        if (series.exists) tx.set(seriesRef(db, seriesId), seriesDocOf(seriesDefOf(series.data()!), { first, last, count: Math.max(0, old.count - 1) }));
        return { kind: 'written', before, after: null, entry };
      }));
    },

    async adminImportPoints({ rows, actor, now, dryRun }) {
      const result = (changed: number, bySeries: ImportResult['bySeries'], entry: AuditEntry | null): ImportResult => ({ rows: rows.length, changed, bySeries, entry });
      if (dryRun) {
        const { changedRows, bySeries } = tally(rows, await storedValuesOf(db, rows));
        return result(changedRows.length, bySeries, null);
      }
      checkPointRows(rows.map((r) => ({ seriesId: r.series, date: r.date, value: r.value, low: r.low, high: r.high })));
      const auditOf = (changed: number, bySeries: ImportResult['bySeries']) => priceAuditEntry.import(rows.length, changed, bySeries, { actor, now });

      if (planDocs(planOf(rows)) + AUDIT_DOCS <= DOCS_PER_COMMIT) {
        return committed(transact(db, async (tx) => {
          const write = await auditWriterIn(db, tx);
          const { changedRows, bySeries } = tally(rows, await storedValuesOf(db, rows, tx));
          if (changedRows.length === 0) return result(0, bySeries, null);
          const plan = planOf(changedRows);
          const state = await readPlan(db, tx, plan);
          const entry = write(auditOf(changedRows.length, bySeries));
          writePlan(db, tx, plan, state);
          return result(changedRows.length, bySeries, entry);
        }));
      }

      // Bigger than one commit: counted first, written in parts, the entry with the last part.
      return committed((async () => {
        const { changedRows, bySeries } = tally(rows, await storedValuesOf(db, rows));
        if (changedRows.length === 0) return result(0, bySeries, null);
        const plan = planOf(changedRows);
        for (const part of chunks([...plan.keys()], DOCS_PER_COMMIT)) {
          const missing = (await db.getAll(...part.map((id) => seriesRef(db, id)))).find((s) => !s.exists);
          if (missing) throw new Error(`FOREIGN KEY constraint failed: no series ${JSON.stringify(missing.id)}`);
        }
        const parts = splitPlan(plan, DOCS_PER_COMMIT - AUDIT_DOCS);
        let entry: AuditEntry | null = null;
        for (const [index, part] of parts.entries()) {
          const lastPart = index === parts.length - 1;
          await transact(db, async (tx) => {
            const write = lastPart ? await auditWriterIn(db, tx) : null;
            const state = await readPlan(db, tx, part);
            if (write) entry = write(auditOf(changedRows.length, bySeries));
            writePlan(db, tx, part, state);
          });
        }
        return result(changedRows.length, bySeries, entry);
      })());
    },

    async latestDates() {
      const snapshot = await db.collection(SERIES).where('count', '>', 0).get();
      return new Map(snapshot.docs.map((doc) => [String(doc.get('id') ?? doc.id), String(doc.get('last'))]));
    },

    adminSetCityPrice({ city, date, polymerType, grade, price, low, high, expected, actor, now }) {
      const quote = price === null ? null : quoteFields({ value: price, low, high });
      return committed(transact(db, async (tx): Promise<PointEditResult> => {
        docId(city);
        checkDate(date, `city ${city}`);
        if (quote) checkQuote(quote, `${city} ${grade} on ${date}`);
        const write = await auditWriterIn(db, tx);
        const [citySnapshot, dateSnapshot] = await tx.getAll(cityRef(db, city), cityDateRef(db, city, date));
        const rows = new Map(sheetRowsOf(dateSnapshot!.get('rows')).map((r) => [r.grade, r]));
        const row = rows.get(grade);
        const current: Quote | null = row ? quoteFields({ value: row.price, low: row.low, high: row.high }) : null;
        if ((current?.value ?? null) !== expected) return { kind: 'conflict', current: current?.value ?? null };
        if (sameQuote(current, quote)) return { kind: 'unchanged' };
        if (quote === null) rows.delete(grade);
        else rows.set(grade, { polymerType, grade, price: quote.value, low: quote.low, high: quote.high });
        const sheet = sortedSheet(rows);

        // The newest-sheet copy: this date when it is (or becomes) the newest; the previous
        // date when the newest one was emptied; gone when the city has no sheet left.
        const latestDate = citySnapshot!.exists ? String(citySnapshot!.get('latestDate')) : null;
        let latest: { date: string; rows: SheetRow[] } | null | undefined; // undefined = unchanged
        if (sheet.length > 0) {
          if (latestDate === null || date >= latestDate) latest = { date, rows: sheet };
        } else if (date === latestDate) {
          const previous = (await tx.get(cityRef(db, city).collection(CITY_DATES).where('date', '<', date).orderBy('date', 'desc').limit(1))).docs[0];
          latest = previous ? { date: String(previous.get('date')), rows: sheetRowsOf(previous.get('rows')) } : null;
        }

        const before = current === null ? null : { date, ...current };
        const after = quote === null ? null : { date, ...quote };
        const entry = write(priceAuditEntry.cityPrice(city, date, grade, current, quote, { actor, now }));
        if (sheet.length > 0) tx.set(cityDateRef(db, city, date), cityDateDocOf(city, date, sheet));
        else tx.delete(cityDateRef(db, city, date));
        if (latest === null) tx.delete(cityRef(db, city));
        else if (latest !== undefined) tx.set(cityRef(db, city), cityDocOf(city, latest.date, latest.rows));
        return { kind: 'written', before, after, entry };
      }));
    },

    adminSetOffers({ country, date, data, ranges, actor, now }) {
      return committed(transact(db, async (tx) => {
        docId(country);
        checkDate(date, `offers of ${country}`);
        const day = checkOffer({ data, ranges }, `offers of ${country} on ${date}`);
        const write = await auditWriterIn(db, tx);
        const month = monthKey(date);
        const days = monthDays(await tx.get(monthRef(db, country, month)));
        const before = days.get(date) ?? null;
        if (before !== null && sameOfferDay(before, day)) return { kind: 'unchanged' as const };
        const entry = write(priceAuditEntry.offers(country, date, before, day, { actor, now }));
        days.set(date, day);
        tx.set(monthRef(db, country, month), monthDocOf(country, month, days));
        tx.set(countryRef(db, country), { country });
        return { kind: 'written' as const, entry };
      }));
    },
  };
}

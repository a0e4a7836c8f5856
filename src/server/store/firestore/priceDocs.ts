/**
 * The Firestore layout of the price data, and the helpers the price adapters share
 * (prices.ts, priceAdmin.ts, bannerAdmin.ts, priceTransfer.ts):
 *
 * - `priceSeries/{seriesId}`: the SeriesDef fields + the summary `first`, `last` (ISO date or
 *   null) and `count`, rewritten in the same transaction as every point write or delete.
 * - `priceSeries/{seriesId}/years/{yyyy}`: `{ seriesId, year, dates, values, lows, highs,
 *   count, first, last }` — one calendar year of points, `dates` ascending and `values`, `lows`
 *   and `highs` parallel to them (`lows`/`highs` null where a point is a single value; a document
 *   written before ranges has neither array). A year document that loses its last point is
 *   deleted.
 * - `citySheets/{city}`: `{ city, latestDate, latestRows }` — a copy of the city's newest
 *   sheet (so every city's newest sheet is one query), kept right by every sheet write.
 * - `citySheets/{city}/dates/{date}`: `{ city, date, rows: [{ polymerType, grade, price, low?,
 *   high? }] }`, one row per grade, sorted by (polymerType, grade); `low` and `high` only on a
 *   range.
 * - `offers/{country}`: `{ country }` (so the countries can be listed for a copy) and
 *   `offers/{country}/months/{yyyy-mm}`: `{ country, month, days: [{ date, entries: [{ group,
 *   grade, value, low?, high? }] }] }`, days ascending; entries keep the key order of the
 *   offer's `data` (a group without grades is one entry with `grade: null, value: null`);
 *   `low` and `high` only on a cell quoted as a range (its value their mid).
 * - `site/banners`: `{ list: Banner[] }` in display order.
 *
 * Every document is written whole with the same top-level fields (docs/data.md, "Firestore
 * layout"); variable content lives in arrays. Only single-field indexes are queried.
 */
import type { DocumentData, DocumentReference, DocumentSnapshot, Firestore, Transaction } from 'firebase-admin/firestore';
import type { SeriesDef } from '../../../lib/seriesCatalog.ts';
import type { Banner, CityPriceRow, OfferDay, PricePoint } from '../prices.ts';
import type { Quote } from '../../../lib/priceTypes.ts';
import { offerCellsOf, offerDayOf, quoteFields, type OfferCells } from '../../../lib/quotes.ts';
import { checkDate, checkQuote } from '../checks.ts';
import { DOCS_PER_COMMIT, docId, usableId } from './database.ts';

export { usableId };

export const SERIES = 'priceSeries';
export const YEARS = 'years';
export const CITY_SHEETS = 'citySheets';
export const CITY_DATES = 'dates';
export const OFFERS = 'offers';
export const OFFER_MONTHS = 'months';
export const BANNERS_DOC = 'site/banners';

/** Binary string order, as SQLite's default collation (not localeCompare). */
export const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export const yearOf = (date: string): number => Number(date.slice(0, 4));
export const yearKey = (year: number): string => String(year).padStart(4, '0');

// ---------------------------------------------------------------- series and points

export interface Summary {
  readonly first: string | null;
  readonly last: string | null;
  readonly count: number;
}

export const EMPTY_SUMMARY: Summary = { first: null, last: null, count: 0 };

export const seriesRef = (db: Firestore, id: string): DocumentReference => db.collection(SERIES).doc(docId(id));
export const yearRef = (db: Firestore, seriesId: string, year: number): DocumentReference =>
  seriesRef(db, seriesId).collection(YEARS).doc(yearKey(year));

export const seriesDefOf = (data: DocumentData): SeriesDef => ({
  id: String(data['id']),
  family: String(data['family']) as SeriesDef['family'],
  product: String(data['product']),
  market: String(data['market']),
  grade: String(data['grade'] ?? ''),
  unit: String(data['unit']) as SeriesDef['unit'],
  currency: String(data['currency']) as SeriesDef['currency'],
  frequency: String(data['frequency']) as SeriesDef['frequency'],
  label: String(data['label']),
});

export const summaryOf = (data: DocumentData | undefined): Summary =>
  data && Number(data['count'] ?? 0) > 0
    ? { first: String(data['first']), last: String(data['last']), count: Number(data['count']) }
    : EMPTY_SUMMARY;

/** The whole series document. */
export const seriesDocOf = (def: SeriesDef, summary: Summary): Record<string, unknown> => ({
  id: def.id,
  family: def.family,
  product: def.product,
  market: def.market,
  grade: def.grade,
  unit: def.unit,
  currency: def.currency,
  frequency: def.frequency,
  label: def.label,
  first: summary.count > 0 ? summary.first : null,
  last: summary.count > 0 ? summary.last : null,
  count: summary.count,
});

/** `{low, high}` from stored fields when both are numbers, else `{}` (a single value). */
const rangeOf = (low: unknown, high: unknown): { low: number; high: number } | Record<string, never> =>
  typeof low === 'number' && typeof high === 'number' ? { low, high } : {};

/** A year document's points, date → quote (insertion order ascending). */
export function yearPoints(snapshot: DocumentSnapshot | undefined): Map<string, Quote> {
  const out = new Map<string, Quote>();
  if (!snapshot?.exists) return out;
  const dates = (snapshot.get('dates') ?? []) as string[];
  const values = (snapshot.get('values') ?? []) as number[];
  const lows = (snapshot.get('lows') ?? []) as (number | null)[];
  const highs = (snapshot.get('highs') ?? []) as (number | null)[];
  dates.forEach((date, i) => out.set(date, { value: Number(values[i]), ...rangeOf(lows[i], highs[i]) }));
  return out;
}

export function pointsOfYear(snapshot: DocumentSnapshot): PricePoint[] {
  return [...yearPoints(snapshot)].map(([date, quote]) => ({ date, ...quote }));
}

/** The whole year document of `points` (sorted here). */
export function yearDocOf(seriesId: string, year: number, points: ReadonlyMap<string, Quote>): Record<string, unknown> {
  const dates = [...points.keys()].sort(byText);
  return {
    seriesId,
    year,
    dates,
    values: dates.map((d) => points.get(d)!.value),
    lows: dates.map((d) => points.get(d)!.low ?? null),
    highs: dates.map((d) => points.get(d)!.high ?? null),
    count: dates.length,
    first: dates[0] ?? null,
    last: dates.at(-1) ?? null,
  };
}

/** Points grouped for writing: series → year → date → quote (a later row wins). */
export type PointPlan = Map<string, Map<number, Map<string, Quote>>>;

export function planPoints(rows: readonly (Quote & { readonly seriesId: string; readonly date: string })[]): PointPlan {
  const plan: PointPlan = new Map();
  for (const row of rows) {
    let years = plan.get(row.seriesId);
    if (!years) plan.set(row.seriesId, (years = new Map()));
    const year = yearOf(row.date);
    let dates = years.get(year);
    if (!dates) years.set(year, (dates = new Map()));
    dates.set(row.date, quoteFields(row));
  }
  return plan;
}

/** Validates point rows the way SQLite's constraints would refuse them, before any write. */
export function checkPointRows(rows: readonly (Quote & { readonly seriesId: string; readonly date: string })[]): void {
  for (const row of rows) {
    checkQuote(row, `${row.seriesId} on ${row.date}`);
    checkDate(row.date, row.seriesId);
    docId(row.seriesId);
  }
}

/** Splits a plan into parts of at most `budget` documents (year documents + their series). */
export function splitPlan(plan: PointPlan, budget: number = DOCS_PER_COMMIT): PointPlan[] {
  const parts: PointPlan[] = [];
  let part: PointPlan = new Map();
  let docs = 0;
  for (const [seriesId, years] of plan) {
    for (const [year, dates] of years) {
      const extra = part.has(seriesId) ? 1 : 2;
      if (docs + extra > budget && docs > 0) {
        parts.push(part);
        part = new Map();
        docs = 0;
      }
      let target = part.get(seriesId);
      if (!target) {
        part.set(seriesId, (target = new Map()));
        docs++;
      }
      target.set(year, dates);
      docs++;
    }
  }
  if (docs > 0) parts.push(part);
  return parts;
}

/** Documents a plan writes (year documents + series documents). */
export const planDocs = (plan: PointPlan): number => [...plan.values()].reduce((n, years) => n + years.size + 1, 0);

export interface PlanState {
  readonly series: Map<string, DocumentSnapshot>;
  readonly years: Map<string, Map<number, Map<string, Quote>>>;
}

/** Reads (in `tx`) the series and year documents a plan touches. Throws for a missing series. */
export async function readPlan(db: Firestore, tx: Transaction, plan: PointPlan): Promise<PlanState> {
  const seriesIds = [...plan.keys()];
  const units = seriesIds.flatMap((id) => [...plan.get(id)!.keys()].map((year) => ({ id, year })));
  const refs = [...seriesIds.map((id) => seriesRef(db, id)), ...units.map((u) => yearRef(db, u.id, u.year))];
  const snapshots = refs.length > 0 ? await tx.getAll(...refs) : [];
  const series = new Map<string, DocumentSnapshot>();
  seriesIds.forEach((id, i) => {
    const snapshot = snapshots[i]!;
    // SQLite's foreign key: a point needs its series.
    if (!snapshot.exists) throw new Error(`FOREIGN KEY constraint failed: no series ${JSON.stringify(id)}`);
    series.set(id, snapshot);
  });
  const years = new Map<string, Map<number, Map<string, Quote>>>();
  units.forEach((u, i) => {
    let byYear = years.get(u.id);
    if (!byYear) years.set(u.id, (byYear = new Map()));
    byYear.set(u.year, yearPoints(snapshots[seriesIds.length + i]));
  });
  return { series, years };
}

/**
 * Writes (in `tx`, after its reads) the plan's points over the state read: every touched year
 * document whole, every touched series document with its summary moved on. Only adds or
 * replaces points, so the summary's ends can only widen.
 */
export function writePlan(db: Firestore, tx: Transaction, plan: PointPlan, state: PlanState): void {
  for (const [seriesId, years] of plan) {
    const snapshot = state.series.get(seriesId)!;
    const old = summaryOf(snapshot.data());
    let count = old.count;
    let first = old.first;
    let last = old.last;
    for (const [year, dates] of years) {
      const stored = state.years.get(seriesId)!.get(year)!;
      const merged = new Map(stored);
      for (const [date, value] of dates) merged.set(date, value);
      count += merged.size - stored.size;
      for (const date of dates.keys()) {
        if (first === null || date < first) first = date;
        if (last === null || date > last) last = date;
      }
      tx.set(yearRef(db, seriesId, year), yearDocOf(seriesId, year, merged));
    }
    tx.set(seriesRef(db, seriesId), seriesDocOf(seriesDefOf(snapshot.data()!), { first, last, count }));
  }
}

// ---------------------------------------------------------------- city sheets

export interface SheetRow {
  readonly polymerType: string;
  readonly grade: string;
  readonly price: number;
  readonly low?: number | undefined;
  readonly high?: number | undefined;
}

/** A sheet row as stored: `low` and `high` only on a range (no undefined fields in a document). */
const storedSheetRow = (r: SheetRow): Record<string, unknown> => ({ polymerType: r.polymerType, grade: r.grade, price: r.price, ...rangeOf(r.low, r.high) });

export const cityRef = (db: Firestore, city: string): DocumentReference => db.collection(CITY_SHEETS).doc(docId(city));
export const cityDateRef = (db: Firestore, city: string, date: string): DocumentReference =>
  cityRef(db, city).collection(CITY_DATES).doc(docId(date));

const bySheetOrder = (a: { polymerType: string; grade: string }, b: { polymerType: string; grade: string }): number =>
  byText(a.polymerType, b.polymerType) || byText(a.grade, b.grade);

export function sheetRowsOf(value: unknown): SheetRow[] {
  const rows = Array.isArray(value) ? (value as DocumentData[]) : [];
  return rows.map((r) => ({ polymerType: String(r['polymerType']), grade: String(r['grade']), price: Number(r['price']), ...rangeOf(r['low'], r['high']) })).sort(bySheetOrder);
}

/** Rows as the store answers them: with city and date, in (polymerType, grade) order. */
export const cityRowsOf = (city: string, date: string, rows: readonly SheetRow[]): CityPriceRow[] =>
  rows.toSorted(bySheetOrder).map((r) => ({ city, polymerType: r.polymerType, grade: r.grade, price: r.price, ...rangeOf(r.low, r.high), date }));

export const sortedSheet = (byGrade: ReadonlyMap<string, SheetRow>): SheetRow[] => [...byGrade.values()].sort(bySheetOrder);

export const cityDateDocOf = (city: string, date: string, rows: readonly SheetRow[]): Record<string, unknown> => ({
  city,
  date,
  rows: rows.map(storedSheetRow),
});

export const cityDocOf = (city: string, latestDate: string, latestRows: readonly SheetRow[]): Record<string, unknown> => ({
  city,
  latestDate,
  latestRows: latestRows.map(storedSheetRow),
});

// ---------------------------------------------------------------- offers

export interface OfferEntry {
  readonly group: string;
  readonly grade: string | null;
  readonly value: number | null;
  /** A range's ends (its value their mid); absent on a single value. */
  readonly low?: number | undefined;
  readonly high?: number | undefined;
}

export const monthKey = (date: string): string => date.slice(0, 7);
export const countryRef = (db: Firestore, country: string): DocumentReference => db.collection(OFFERS).doc(docId(country));
export const monthRef = (db: Firestore, country: string, month: string): DocumentReference =>
  countryRef(db, country).collection(OFFER_MONTHS).doc(docId(month));

/** An offer day as entries in key order (an empty group keeps one null entry; a range's cell carries its low and high). */
export function offerEntriesOf(day: OfferDay): OfferEntry[] {
  return Object.entries(offerCellsOf(day)).flatMap(([group, grades]): OfferEntry[] => {
    const entries = Object.entries(grades);
    return entries.length === 0 ? [{ group, grade: null, value: null }] : entries.map(([grade, quote]) => ({ group, grade, ...quoteFields(quote) }));
  });
}

/** The offer day stored as `entries` (a document written before ranges reads as single values). */
export function storedOfferDay(entries: unknown): OfferDay {
  const cells: OfferCells = {};
  for (const entry of Array.isArray(entries) ? (entries as DocumentData[]) : []) {
    const group = String(entry['group']);
    const grades = (cells[group] ??= {});
    if (entry['grade'] !== null && entry['grade'] !== undefined) grades[String(entry['grade'])] = { value: Number(entry['value']), ...rangeOf(entry['low'], entry['high']) };
  }
  return offerDayOf(cells);
}

/** A month document's days, date → offer day. */
export function monthDays(snapshot: DocumentSnapshot | undefined): Map<string, OfferDay> {
  const out = new Map<string, OfferDay>();
  if (!snapshot?.exists) return out;
  for (const day of (snapshot.get('days') ?? []) as DocumentData[]) out.set(String(day['date']), storedOfferDay(day['entries']));
  return out;
}

export function monthDocOf(country: string, month: string, days: ReadonlyMap<string, OfferDay>): Record<string, unknown> {
  return {
    country,
    month,
    days: [...days.keys()].sort(byText).map((date) => ({ date, entries: offerEntriesOf(days.get(date)!) })),
  };
}

// ---------------------------------------------------------------- banners

export const bannerOf = (data: DocumentData): Banner => ({
  id: String(data['id']),
  title: String(data['title']),
  subtitle: String(data['subtitle']),
  href: String(data['href']),
  image: String(data['image']),
  alt: String(data['alt']),
  order: Number(data['order']),
});

/** Display order, as SQLite's `ORDER BY sort_order, id`. */
export const byDisplayOrder = (a: Banner, b: Banner): number => a.order - b.order || byText(a.id, b.id);

export function bannersOf(snapshot: DocumentSnapshot): Banner[] {
  const list = snapshot.exists ? ((snapshot.get('list') ?? []) as DocumentData[]) : [];
  return list.map(bannerOf).sort(byDisplayOrder);
}

export const bannersDocOf = (banners: readonly Banner[]): Record<string, unknown> => ({
  list: banners.toSorted(byDisplayOrder).map((b) => ({ id: b.id, title: b.title, subtitle: b.subtitle, href: b.href, image: b.image, alt: b.alt, order: b.order })),
});

/** Refuses a second banner with the same id (SQLite's primary key). */
export function checkBannerIds(banners: readonly Banner[]): void {
  const seen = new Set<string>();
  for (const b of banners) {
    if (seen.has(b.id)) throw new Error(`UNIQUE constraint failed: banners.id ${JSON.stringify(b.id)}`);
    seen.add(b.id);
  }
}

/**
 * Producer list prices (issue 20): what India's polymer producers (Reliance, IOCL, GAIL, HPL,
 * OPaL, HMEL, BCPL, Haldia …) ask for a grade at a plant (ex-works) or a depot (ex-depot), in
 * ₹/kg, from an effective date. The desk enters each new list; a revision is never typed: it is
 * the change (± ₹/kg) of a list against the previous list of the same producer, grade and
 * location, computed here. This module owns the catalog of what each producer lists (its
 * grades and places), the basis of a list price, the revisions, and the reading of the admin's
 * CSV (one format for the form and the import, one set of rules). Pure: no I/O.
 */
import { termsAt, type Basis, type DeliveryTerms } from './basis.ts';
import { findGrade } from './catalog.ts';
import { isoDateOf, parseIsoDate, toDisplayDate, toDisplayDayMonth, type IsoDate } from './dates.ts';
import { PRODUCERS, type Producer } from './delivery/producers.ts';
import { priceValue } from './numbers.ts';
import { priceProblem } from './priceRanges.ts';

/** The two screens of producer prices (Indian bazaar sections). */
export const COMPANY_PRICE_PATH = '/indian-bazaar/companyPrice';
export const RATE_REVISION_PATH = '/indian-bazaar/rateRevision';

/** Where a producer sells from: its plant gate (ex-works) or one of its depots (ex-depot). */
export interface ListLocation {
  /** `jamnagar`, `mumbai-depot`: stable, used in the CSV and in ids. */
  readonly key: string;
  /**
   * The town as a trader says it: "Jamnagar", "Mumbai". Plant or depot is the terms' word
   * (ex-works, ex-depot), so a depot's name is its city alone ("ex-depot Mumbai").
   */
  readonly name: string;
  readonly terms: Extract<DeliveryTerms, 'ex-works' | 'ex-depot'>;
  readonly detail: string;
}

/** What one producer lists: grades (catalog grade keys, `ppRaffia`) at places. */
export interface ProducerListing {
  readonly producer: string;
  readonly grades: readonly string[];
  readonly locations: readonly ListLocation[];
}

const plant = (key: string, name: string, detail: string): ListLocation => ({ key, name, terms: 'ex-works', detail });
const depot = (key: string, name: string, detail: string): ListLocation => ({ key, name, terms: 'ex-depot', detail });

const MUMBAI_DEPOT = depot('mumbai-depot', 'Mumbai', 'the producer’s depot serving Mumbai and Bhiwandi, Maharashtra');
const DELHI_DEPOT = depot('delhi-depot', 'Delhi', 'the producer’s depot serving Delhi NCR');
const KOLKATA_DEPOT = depot('kolkata-depot', 'Kolkata', 'the producer’s depot serving Kolkata, West Bengal');

/** Every producer's list: the catalog data of the producer-prices screens, the admin and the bot. */
export const PRODUCER_LISTINGS: readonly ProducerListing[] = [
  {
    producer: 'reliance',
    grades: ['ppRaffia', 'ppInjectionMoulding', 'hdpeFilm', 'lldpeFilm', 'pvcExtrusion'],
    locations: [plant('jamnagar', 'Jamnagar', 'Reliance’s Jamnagar complex, Gujarat'), MUMBAI_DEPOT, DELHI_DEPOT],
  },
  {
    producer: 'iocl',
    grades: ['ppRaffia', 'ppInjectionMoulding', 'hdpeBlowMoulding', 'lldpeFilm'],
    locations: [plant('panipat', 'Panipat', 'IOCL’s Panipat naphtha cracker, Haryana'), DELHI_DEPOT],
  },
  { producer: 'gail', grades: ['hdpeFilm', 'hdpeBlowMoulding', 'lldpeFilm'], locations: [plant('pata', 'Pata', 'GAIL’s Pata petrochemical complex, Uttar Pradesh'), DELHI_DEPOT] },
  { producer: 'haldia', grades: ['ppRaffia', 'hdpeFilm', 'lldpeFilm'], locations: [plant('haldia', 'Haldia', 'Haldia Petrochemicals’ plant, West Bengal'), KOLKATA_DEPOT] },
  { producer: 'opal', grades: ['ppRaffia', 'hdpeFilm', 'lldpeFilm'], locations: [plant('dahej', 'Dahej', 'OPaL’s Dahej complex, Gujarat'), MUMBAI_DEPOT] },
  { producer: 'hmel', grades: ['ppRaffia', 'ppInjectionMoulding', 'hdpeFilm'], locations: [plant('bathinda', 'Bathinda', 'HMEL’s Guru Gobind Singh refinery complex, Punjab'), DELHI_DEPOT] },
  { producer: 'bcpl', grades: ['hdpeFilm', 'lldpeFilm'], locations: [plant('lepetkata', 'Lepetkata', 'BCPL’s Lepetkata complex, Dibrugarh, Assam'), KOLKATA_DEPOT] },
];

/** Where a list price applies, as every screen and message writes it: "ex-works Jamnagar", "ex-depot Mumbai". */
export const listPlace = (location: ListLocation): string => termsAt(location.terms, location.name);

export const listingOf = (producer: string): ProducerListing | undefined => PRODUCER_LISTINGS.find((l) => l.producer === producer);
/** The producers that list prices, in the listings' order. */
export const listingProducers: readonly Producer[] = PRODUCER_LISTINGS.map((l) => PRODUCERS.find((p) => p.id === l.producer)!);
export const findProducer = (id: string): Producer | undefined => listingProducers.find((p) => p.id === id);

/** One list a producer keeps: a grade at a place. */
export interface ListLine {
  /** `reliance.ppRaffia.jamnagar`. */
  readonly id: string;
  readonly producer: Producer;
  /** The polymer: `PP`, `HDPE` … */
  readonly product: string;
  /** The catalog grade key, `ppRaffia`. */
  readonly grade: string;
  /** "PP Raffia". */
  readonly gradeName: string;
  readonly location: ListLocation;
}

export const listLineId = (producer: string, grade: string, location: string): string => `${producer}.${grade}.${location}`;

/** Every list line, producer by producer, grade by grade, place by place. */
export const LIST_LINES: readonly ListLine[] = PRODUCER_LISTINGS.flatMap((listing) =>
  listing.grades.flatMap((grade) => {
    const ref = findGrade(grade)!;
    return listing.locations.map((location) => ({
      id: listLineId(listing.producer, grade, location.key),
      producer: findProducer(listing.producer)!,
      product: ref.polymer.slug,
      grade,
      gradeName: `${ref.polymer.slug} ${ref.grade.name}`,
      location,
    }));
  }),
);
const linesById = new Map(LIST_LINES.map((line) => [line.id, line]));
export const findListLine = (id: string): ListLine | undefined => linesById.get(id);

/** The products some producer lists, in the catalog's order. */
export const LISTED_PRODUCTS: readonly string[] = [...new Set(LIST_LINES.map((l) => l.product))];

/** The basis of a list line's price: the producer's basic price at the place, GST extra, ₹/kg. */
export function listBasis(line: ListLine): Basis {
  return {
    location: { name: line.location.name, kind: 'city', detail: line.location.detail },
    terms: line.location.terms,
    taxes: { treatment: 'excluded', taxes: '18% GST' },
    unit: '₹/kg',
    kind: 'list',
    publication: { frequency: 'as-revised', days: 'any day', byIst: '18:00', note: 'on the day the producer announces a revision; each list with the date it takes effect' },
    source: `${line.producer.name}: its price circular to distributors`,
    methodology: 'producer-prices',
    quotes: 'single',
  };
}

/** What every list price shares (the screens' one basis line; each row says its place and terms): ₹/kg, GST extra, as revised. */
export const LIST_PRICE_BASIS: Basis = {
  ...listBasis(LIST_LINES[0]!),
  location: { name: 'producers’ plants and depots', kind: 'region' },
  terms: null,
  benchmark: 'Producers’ plants (ex-works) and depots (ex-depot)',
  source: 'each producer’s price circular to its distributors',
};

// ---- records and revisions -------------------------------------------------------------

/** One list price as the store keeps it: a line's price from a date, with who entered it and when. */
export interface ProducerPriceRecord {
  /** `{line}.{effective}`: a line has one price per effective date (re-entering it corrects it). */
  readonly id: string;
  readonly producer: string;
  readonly product: string;
  readonly grade: string;
  readonly location: string;
  readonly terms: ListLocation['terms'];
  /** ₹/kg, GST extra. */
  readonly value: number;
  /** The day the price applies from (IST). */
  readonly effective: IsoDate;
  /** When it was entered (ISO instant) and by whom (uid; `demo` for the demo data). */
  readonly enteredAt: string;
  readonly enteredBy: string;
}

export const producerPriceId = (line: string, effective: IsoDate): string => `${line}.${effective}`;
export const lineIdOf = (record: Pick<ProducerPriceRecord, 'producer' | 'grade' | 'location'>): string => listLineId(record.producer, record.grade, record.location);

/** The record of a line's price from a date. */
export function producerPriceRecord(line: ListLine, effective: IsoDate, value: number, entered: { at: Date; by: string }): ProducerPriceRecord {
  return {
    id: producerPriceId(line.id, effective),
    producer: line.producer.id,
    product: line.product,
    grade: line.grade,
    location: line.location.key,
    terms: line.location.terms,
    value,
    effective,
    enteredAt: entered.at.toISOString(),
    enteredBy: entered.by,
  };
}

/** A list against the one before it on the same line: the revision. */
export interface Revision {
  readonly record: ProducerPriceRecord;
  readonly line: ListLine;
  /** The list it revises; null for a line's first list (no revision, only a price). */
  readonly previous: ProducerPriceRecord | null;
  /** ± ₹/kg against the previous list, rounded as the price is; null without a previous list. */
  readonly change: number | null;
}

const byEffective = (a: ProducerPriceRecord, b: ProducerPriceRecord): number => (a.effective < b.effective ? -1 : a.effective > b.effective ? 1 : 0);

/**
 * Every list with its change against the previous list of its line, newest first (by effective
 * date, then line order). Records of lines the catalog no longer has are left out.
 */
export function revisionsOf(records: readonly ProducerPriceRecord[]): Revision[] {
  const byLine = new Map<string, ProducerPriceRecord[]>();
  for (const record of records) {
    const id = lineIdOf(record);
    byLine.set(id, [...(byLine.get(id) ?? []), record]);
  }
  const out: Revision[] = [];
  for (const [id, list] of byLine) {
    const line = findListLine(id);
    if (!line) continue;
    const sorted = list.toSorted(byEffective);
    sorted.forEach((record, i) => {
      const previous = sorted[i - 1] ?? null;
      out.push({ record, line, previous, change: previous ? priceValue(record.value - previous.value, LIST_PRICE_BASIS) : null });
    });
  }
  const order = new Map(LIST_LINES.map((line, i) => [line.id, i]));
  return out.sort((a, b) => byEffective(b.record, a.record) || order.get(a.line.id)! - order.get(b.line.id)!);
}

/** The revisions proper (a change against a previous list, including an unchanged re-list: 0). */
export const revisionsOnly = (revisions: readonly Revision[]): Revision[] => revisions.filter((r) => r.previous !== null);

/** Each line's list in force on `date` (the latest effective on or before it), in line order. */
export function currentLists(records: readonly ProducerPriceRecord[], date: IsoDate): Revision[] {
  const latest = new Map<string, Revision>();
  for (const revision of revisionsOf(records.filter((r) => r.effective <= date))) if (!latest.has(revision.line.id)) latest.set(revision.line.id, revision);
  return LIST_LINES.flatMap((line) => latest.get(line.id) ?? []);
}

/** The revision a record made, among these records (null when it is a line's first list). */
export const revisionOfRecord = (records: readonly ProducerPriceRecord[], id: string): Revision | undefined => revisionsOf(records).find((r) => r.record.id === id);

// ---- filters of the screens -------------------------------------------------------------

export interface ListFilter {
  readonly producer: string | null;
  readonly product: string | null;
  /** `YYYY-MM`: revisions effective in that month. */
  readonly month: string | null;
}

/** The screens' filters from a query string: unknown values are ignored (the whole list shows). */
export function listFilterOf(query: URLSearchParams): ListFilter {
  const producer = query.get('producer');
  const product = query.get('product');
  const month = query.get('month');
  return {
    producer: producer && findProducer(producer) ? producer : null,
    product: product && LISTED_PRODUCTS.includes(product) ? product : null,
    month: month && /^\d{4}-(0[1-9]|1[0-2])$/.test(month) ? month : null,
  };
}

/** "23rd Nov" in the year of `today`, "23rd Nov 2025" before it: the screens' dates, short enough for a phone's column. */
export const listDateText = (date: IsoDate, today: IsoDate): string => (date.slice(0, 4) === today.slice(0, 4) ? toDisplayDayMonth(date) : toDisplayDate(date));

/** The months (`YYYY-MM`) revisions took effect in, newest first. */
export const monthsOf = (revisions: readonly Revision[]): string[] => [...new Set(revisions.map((r) => r.record.effective.slice(0, 7)))].sort().reverse();

export const matchesFilter = (revision: Revision, filter: ListFilter): boolean =>
  (filter.producer === null || revision.line.producer.id === filter.producer) &&
  (filter.product === null || revision.line.product === filter.product) &&
  (filter.month === null || revision.record.effective.startsWith(filter.month));

// ---- the desk's input: one rule for the form and the CSV -----------------------------------

/** The CSV's column header (docs/csv-format.md, "Producer list prices"). */
export const PRODUCER_CSV_HEADER = 'producer,grade,location,effective,value';
export const MAX_PRODUCER_IMPORT_BYTES = 1024 * 1024;
export const MAX_PRODUCER_IMPORT_ROWS = 2_000;

export interface ListPriceInput {
  readonly producer: string;
  readonly grade: string;
  readonly location: string;
  readonly effective: string;
  readonly value: number;
}

export type ListPriceField = 'producer' | 'grade' | 'location' | 'effective' | 'value';

export interface ListPriceProblem {
  readonly field: ListPriceField | 'header' | 'columns';
  readonly message: string;
}

/**
 * What is wrong with one list price the desk enters, or null: a producer, grade and place the
 * catalog lists, a real day no later than today in India (a list is announced, then entered; a
 * future date is a typo), and a ₹/kg value in the sane range with at most 2 decimals.
 */
export function listPriceProblem(input: ListPriceInput, now: Date): ListPriceProblem | null {
  const listing = listingOf(input.producer);
  if (!listing) return { field: 'producer', message: `"${input.producer.slice(0, 30)}" is not a producer PolyIndex lists (${PRODUCER_LISTINGS.map((l) => l.producer).join(', ')})` };
  const producer = findProducer(input.producer)!;
  if (!listing.grades.includes(input.grade)) return { field: 'grade', message: `${producer.name} lists no grade "${input.grade.slice(0, 30)}" (${listing.grades.join(', ')})` };
  if (!listing.locations.some((l) => l.key === input.location))
    return { field: 'location', message: `${producer.name} lists no place "${input.location.slice(0, 30)}" (${listing.locations.map((l) => l.key).join(', ')})` };
  if (parseIsoDate(input.effective) === null) return { field: 'effective', message: 'the effective date must be a real day, YYYY-MM-DD' };
  const today = isoDateOf(now);
  if (input.effective > today) return { field: 'effective', message: `the effective date ${input.effective} is after today (${today}, India time)` };
  const problem = priceProblem(LIST_PRICE_BASIS, input.value);
  if (problem) return { field: 'value', message: problem };
  return null;
}

export interface ProducerCsvError extends ListPriceProblem {
  /** 1-based line of the file. */
  readonly line: number;
}

export type ProducerCsvReading =
  | { readonly ok: true; readonly rows: readonly ListPriceInput[] }
  | { readonly ok: false; readonly tooManyRows: boolean; readonly errors: readonly ProducerCsvError[] };

const PLAIN_NUMBER = /^\d+(\.\d+)?$/;

/**
 * The admin's CSV of list prices: the header, then `reliance,ppRaffia,jamnagar,2026-11-24,104.50`
 * per line. `#` lines are comments, blank lines are skipped. Every row is checked by
 * `listPriceProblem`; a line and effective date twice is an error; any error refuses the file.
 */
export function readProducerCsv(text: string, now: Date): ProducerCsvReading {
  const lines = (text.startsWith('\uFEFF') ? text.slice(1) : text).split(/\r?\n/);
  const errors: ProducerCsvError[] = [];
  const rows: ListPriceInput[] = [];
  const seen = new Set<string>();
  let header = false;
  for (const [i, raw] of lines.entries()) {
    const line = i + 1;
    // A spreadsheet program that saved the file may have added empty cells at the end.
    const textLine = raw.trim().replace(/,+$/, '');
    if (textLine === '' || textLine.startsWith('#')) continue;
    if (!header) {
      if (textLine.toLowerCase() !== PRODUCER_CSV_HEADER) return { ok: false, tooManyRows: false, errors: [{ line, field: 'header', message: `the first line must be "${PRODUCER_CSV_HEADER}"` }] };
      header = true;
      continue;
    }
    if (rows.length + errors.length >= MAX_PRODUCER_IMPORT_ROWS) return { ok: false, tooManyRows: true, errors: [] };
    const cells = textLine.split(',').map((c) => c.trim());
    if (cells.length !== 5) {
      errors.push({ line, field: 'columns', message: `expected 5 columns (${PRODUCER_CSV_HEADER}), got ${cells.length}` });
      continue;
    }
    const [producer, grade, location, effective, value] = cells as [string, string, string, string, string];
    if (!PLAIN_NUMBER.test(value)) {
      errors.push({ line, field: 'value', message: `the value must be a plain number like 104.50 (got "${value.slice(0, 20)}")` });
      continue;
    }
    const input = { producer, grade, location, effective, value: Number(value) };
    const problem = listPriceProblem(input, now);
    if (problem) {
      errors.push({ line, ...problem });
      continue;
    }
    const key = producerPriceId(listLineId(producer, grade, location), effective);
    if (seen.has(key)) {
      errors.push({ line, field: 'effective', message: `${listLineId(producer, grade, location)} from ${effective} appears twice in the file` });
      continue;
    }
    seen.add(key);
    rows.push(input);
  }
  if (!header) return { ok: false, tooManyRows: false, errors: [{ line: 1, field: 'header', message: `the file is empty: the first line must be "${PRODUCER_CSV_HEADER}"` }] };
  if (errors.length > 0) return { ok: false, tooManyRows: false, errors: errors.slice(0, 50) };
  if (rows.length === 0) return { ok: false, tooManyRows: false, errors: [{ line: 2, field: 'columns', message: 'the file has no list prices' }] };
  return { ok: true, rows };
}

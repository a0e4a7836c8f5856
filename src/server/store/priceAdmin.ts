/**
 * The audited price writes of the admin area (issue 7): one point set or deleted with a check of
 * the value the administrator saw (no silent lost update), a CSV import in one transaction, and
 * every series' latest date for the freshness dashboard. Each write records its audit entry in
 * its own transaction (target `series:{id}`).
 */
import type { AuditActor, AuditEntry, NewAuditEntry } from './audit.ts';
import type { OfferDay, PricePoint, Quote } from '../../lib/priceTypes.ts';
import { quoteFields } from '../../lib/quotes.ts';

export const seriesTarget = (seriesId: string): string => `series:${seriesId}`;
export const IMPORT_TARGET = 'prices:import';
export const cityTarget = (city: string): string => `citywise:${city}`;
export const offersTarget = (country: string): string => `offers:${country}`;

export interface PointEdit {
  readonly seriesId: string;
  readonly date: string;
  /**
   * The value the administrator saw: null = "there was no point on this date". When the stored
   * value differs, nothing is written and the answer is a conflict with the current value.
   */
  readonly expected: number | null;
  readonly actor: AuditActor;
  readonly now: Date;
}

export type PointEditResult =
  | { readonly kind: 'written'; readonly before: PricePoint | null; readonly after: PricePoint | null; readonly entry: AuditEntry }
  | { readonly kind: 'unchanged' }
  | { readonly kind: 'conflict'; readonly current: number | null };

export interface ImportResult {
  readonly rows: number;
  /** Rows whose (series, date) was new or held another value. */
  readonly changed: number;
  readonly bySeries: Readonly<Record<string, { readonly rows: number; readonly changed: number }>>;
  /** Null for a dry run and for an import that changed nothing. */
  readonly entry: AuditEntry | null;
}

/** A row of a price import: a single value, or a range with its mid (src/lib/quotes.ts). */
export interface ImportPointRow extends Quote {
  readonly series: string;
  readonly date: string;
}

export interface PriceAdminStore {
  /**
   * Sets one point (creates or replaces) if its value is still `expected`. A range comes as its
   * low and high with their mid as the value (src/lib/quotes.ts).
   */
  adminSetPoint(edit: PointEdit & Quote): Promise<PointEditResult>;
  /** Deletes one point if its value is still `expected` (a missing point is a conflict). */
  adminDeletePoint(edit: PointEdit & { readonly expected: number }): Promise<PointEditResult>;
  /**
   * Upserts validated rows in one transaction with one audit entry (rows, series, changed
   * count). `dryRun` computes the same counts and writes nothing.
   */
  adminImportPoints(input: {
    readonly rows: readonly ImportPointRow[];
    readonly actor: AuditActor;
    readonly now: Date;
    readonly dryRun: boolean;
  }): Promise<ImportResult>;
  /** Every series' latest point date. */
  latestDates(): Promise<Map<string, string>>;
  /**
   * Sets (price) or removes (price null) one row of a city's sheet for a date, if the stored
   * price is still `expected` (null = no row). Audited under `citywise:{city}`.
   */
  adminSetCityPrice(edit: {
    readonly city: string;
    readonly date: string;
    readonly polymerType: string;
    readonly grade: string;
    readonly price: number | null;
    /** The range's ends, with `price` their mid; absent for a single price. */
    readonly low?: number | undefined;
    readonly high?: number | undefined;
    readonly expected: number | null;
    readonly actor: AuditActor;
    readonly now: Date;
  }): Promise<PointEditResult>;
  /**
   * Replaces a country's offers of one date (`{group:{grade:value}}`, and the ends of the cells
   * quoted as ranges, each value their mid). Audited under `offers:{country}`.
   */
  adminSetOffers(edit: OfferDay & {
    readonly country: string;
    readonly date: string;
    readonly actor: AuditActor;
    readonly now: Date;
  }): Promise<{ readonly kind: 'written'; readonly entry: AuditEntry } | { readonly kind: 'unchanged' }>;
}

/** An offer day's own fields, without an undefined `ranges` (an audit entry and a comparison see what is kept). */
const offerDayFields = (day: OfferDay): OfferDay => (day.ranges ? { data: day.data, ranges: day.ranges } : { data: day.data });

/** The same values and the same ranges, in the same order (a day written again as it is changes nothing). */
export const sameOfferDay = (a: OfferDay, b: OfferDay): boolean => JSON.stringify(offerDayFields(a)) === JSON.stringify(offerDayFields(b));

/** Who made an audited write, and when. */
export interface AuditedBy {
  readonly actor: AuditActor;
  readonly now: Date;
}

/**
 * The audit entries of the admin's price writes: what every adapter records, in one place, so
 * the log reads the same whichever store keeps it.
 */
export const priceAuditEntry = {
  pointSet: (seriesId: string, date: string, current: Quote | null, quote: Quote, { actor, now }: AuditedBy): NewAuditEntry => ({
    at: now.toISOString(),
    actor,
    action: current === null ? 'price.add' : 'price.change',
    target: seriesTarget(seriesId),
    before: current === null ? null : { date, ...quoteFields(current) },
    after: { date, ...quoteFields(quote) },
  }),
  pointDelete: (seriesId: string, date: string, current: Quote, { actor, now }: AuditedBy): NewAuditEntry => ({
    at: now.toISOString(),
    actor,
    action: 'price.delete',
    target: seriesTarget(seriesId),
    before: { date, ...quoteFields(current) },
    after: null,
  }),
  import: (rows: number, changed: number, bySeries: ImportResult['bySeries'], { actor, now }: AuditedBy): NewAuditEntry => ({
    at: now.toISOString(),
    actor,
    action: 'price.import',
    target: IMPORT_TARGET,
    before: null,
    after: { rows, changed, series: bySeries },
  }),
  cityPrice: (city: string, date: string, grade: string, current: Quote | null, price: Quote | null, { actor, now }: AuditedBy): NewAuditEntry => ({
    at: now.toISOString(),
    actor,
    action: price === null ? 'citywise.delete' : current === null ? 'citywise.add' : 'citywise.change',
    target: cityTarget(city),
    before: current === null ? null : { grade, date, ...quoteFields(current) },
    after: price === null ? null : { grade, date, ...quoteFields(price) },
  }),
  /** Before and after: `{date, data}`, with `ranges` (each range cell's low and high) when the day has any. */
  offers: (country: string, date: string, before: OfferDay | null, after: OfferDay, { actor, now }: AuditedBy): NewAuditEntry => ({
    at: now.toISOString(),
    actor,
    action: before === null ? 'offers.add' : 'offers.change',
    target: offersTarget(country),
    before: before === null ? null : { date, ...offerDayFields(before) },
    after: { date, ...offerDayFields(after) },
  }),
};

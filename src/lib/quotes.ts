/**
 * Single prices and ranges (issue 20): where the market quotes a range (the basis says so:
 * `quotes: 'range'`, src/lib/basis.ts), a price is kept as its low and its high, and its value
 * is their mid, derived here and nowhere else. Every reader that wants one number (a chart's
 * line, a change, an alert, a conversion) reads the value; the pages, the API and the exports
 * add the low and the high where there are any. A single-value price has neither.
 */
import type { OfferData, OfferDay, OfferRanges, Quote } from './priceTypes.ts';
import { roundTo } from './numbers.ts';

/** Decimals the mid keeps: enough for the half of any quoted price, none of the float noise. */
const MID_DECIMALS = 6;

/** The mid of a range: (low + high) / 2, without float noise. */
export const midOf = (low: number, high: number): number => roundTo((low + high) / 2, MID_DECIMALS);

/** A range as the store keeps it: low, high and the derived mid. */
export const rangeQuote = (low: number, high: number): Quote => ({ value: midOf(low, high), low, high });

/** True when the quote is a range. */
export const isRange = (quote: Quote): quote is Quote & { readonly low: number; readonly high: number } =>
  quote.low !== undefined && quote.high !== undefined;

/**
 * A quote from what a form, a file or a JSON body gives: a value, or a low and a high (the mid
 * then derived; a value given beside them must be that mid).
 */
export function quoteOf(input: { readonly value?: number | null | undefined; readonly low?: number | null | undefined; readonly high?: number | null | undefined }): Quote {
  const { low, high } = input;
  if (low !== null && low !== undefined && high !== null && high !== undefined) return rangeQuote(low, high);
  return { value: input.value ?? Number.NaN };
}

/**
 * Null when the quote may be stored, else why not: a low without a high (or the reverse), a low
 * above its high, a value that is not the range's mid.
 */
export function rangeProblem(quote: { readonly value: number; readonly low?: number | null | undefined; readonly high?: number | null | undefined }): string | null {
  const hasLow = quote.low !== undefined && quote.low !== null;
  const hasHigh = quote.high !== undefined && quote.high !== null;
  if (!hasLow && !hasHigh) return null;
  if (!hasLow) return 'a range needs its low as well as its high';
  if (!hasHigh) return 'a range needs its high as well as its low';
  const low = quote.low!;
  const high = quote.high!;
  if (!Number.isFinite(low) || !Number.isFinite(high)) return 'the low and the high must be numbers';
  if (low > high) return 'the low must not be above the high';
  if (quote.value !== midOf(low, high)) return `the value of a range is its mid (${midOf(low, high)}), not ${quote.value}`;
  return null;
}

/** The quote's own fields, without undefined ones: what a record carries (checksums agree across stores). */
export const quoteFields = (quote: Quote): Quote => (isRange(quote) ? { value: quote.value, low: quote.low, high: quote.high } : { value: quote.value });

/** Same value, same low and same high. */
export const sameQuote = (a: Quote | null | undefined, b: Quote | null | undefined): boolean =>
  a === b || (!!a && !!b && a.value === b.value && (a.low ?? null) === (b.low ?? null) && (a.high ?? null) === (b.high ?? null));

/**
 * The decimals a range's mid is written in: one more than its ends (the mid of two whole-dollar
 * ends may be a half), so a file or an answer carries the mid exactly and an import of it reads
 * back the same range.
 */
export const midDecimals = (decimals: number): number => decimals + 1;

/** A price's value rounded for a reader: a range's mid with `midDecimals`, a single value with `decimals`. */
export const writtenValue = (point: Quote, decimals: number): number => roundTo(point.value, isRange(point) ? midDecimals(decimals) : decimals);

/** An offer day's cells as quotes, `{group: {grade: quote}}`, in the day's order. */
export type OfferCells = Record<string, Record<string, Quote>>;

/** One cell of an offer day as a quote (a range's ends where it is one); undefined when the day has no such cell. */
export function offerQuote(day: OfferDay, group: string, grade: string): Quote | undefined {
  const value = day.data[group]?.[grade];
  if (value === undefined) return undefined;
  const range = day.ranges?.[group]?.[grade];
  return range ? { value, low: range.low, high: range.high } : { value };
}

/** Every cell of an offer day as a quote (ends of `ranges` without a value are not cells: the store refuses them). */
export function offerCellsOf(day: OfferDay): OfferCells {
  const cells: OfferCells = {};
  for (const [group, grades] of Object.entries(day.data)) {
    const row: Record<string, Quote> = (cells[group] = {});
    for (const grade of Object.keys(grades)) row[grade] = offerQuote(day, group, grade)!;
  }
  return cells;
}

/**
 * An offer day as the stores keep it: every cell's value in `data` (a range's mid), and the ends
 * of the ranges in `ranges`, in the cells' order, only when there is at least one.
 */
export function offerDayOf(cells: OfferCells): OfferDay {
  const data: OfferData = {};
  const ranges: OfferRanges = {};
  for (const [group, grades] of Object.entries(cells)) {
    const values: Record<string, number> = (data[group] = {});
    for (const [grade, quote] of Object.entries(grades)) {
      values[grade] = quote.value;
      if (isRange(quote)) (ranges[group] ??= {})[grade] = { low: quote.low, high: quote.high };
    }
  }
  return Object.keys(ranges).length > 0 ? { data, ranges } : { data };
}

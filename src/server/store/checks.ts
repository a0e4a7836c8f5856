/**
 * What every adapter refuses before it writes anything, so both stores accept exactly the
 * same price data and a bad row never leaves a batch half-written (RangeError / TypeError).
 */
import type { OfferData, OfferDay } from './prices.ts';
import { offerCellsOf, offerDayOf, rangeProblem } from '../../lib/quotes.ts';

/** `YYYY-MM-DD` in shape (the callers' zod schemas check it is a real date). */
const ISO_SHAPE = /^[0-9]{4}-[0-1][0-9]-[0-3][0-9]$/;

export function checkDate(date: string, what: string): void {
  if (typeof date !== 'string' || !ISO_SHAPE.test(date)) throw new RangeError(`not an ISO date (YYYY-MM-DD) for ${what}: ${JSON.stringify(date)}`);
}

export function checkFinite(value: number, what: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new RangeError(`not a finite value for ${what}`);
}

/** `{group:{grade:value}}` with finite values. */
export function checkOfferData(data: OfferData, what: string): void {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new TypeError(`offer data must be an object for ${what}`);
  for (const [group, grades] of Object.entries(data)) {
    if (typeof grades !== 'object' || grades === null || Array.isArray(grades)) throw new TypeError(`offer group ${group} must be an object for ${what}`);
    for (const [grade, value] of Object.entries(grades)) checkFinite(value, `${what} ${group}/${grade}`);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * An offer day: its `data` as `checkOfferData`, and each cell of its `ranges` a range of a cell
 * that has a value, that value the range's mid (`checkQuote`). Answers the day as the stores
 * keep it (`offerDayOf`: `ranges` in the cells' order, absent when empty), so both stores write
 * the same record.
 */
export function checkOffer(day: OfferDay, what: string): OfferDay {
  checkOfferData(day.data, what);
  const { ranges } = day;
  if (ranges === undefined || ranges === null) return offerDayOf(offerCellsOf({ data: day.data }));
  if (!isObject(ranges)) throw new TypeError(`offer ranges must be an object for ${what}`);
  for (const [group, grades] of Object.entries(ranges)) {
    if (!isObject(grades)) throw new TypeError(`offer range group ${group} must be an object for ${what}`);
    for (const [grade, range] of Object.entries(grades)) {
      const cell = `${what} ${group}/${grade}`;
      if (!isObject(range)) throw new TypeError(`an offer range must be {low, high} for ${cell}`);
      const value = day.data[group]?.[grade];
      if (value === undefined) throw new RangeError(`a range without its value (the mid) for ${cell}`);
      if (range['low'] === undefined && range['high'] === undefined) throw new RangeError(`a range needs its low and its high for ${cell}`);
      checkQuote({ value, low: range['low'] as number | undefined, high: range['high'] as number | undefined }, cell);
    }
  }
  return offerDayOf(offerCellsOf(day));
}

/**
 * A finite value, and where a low and a high come with it, a range whose value is its mid
 * (src/lib/quotes.ts): both ends or neither, low ≤ high.
 */
export function checkQuote(quote: { readonly value: number; readonly low?: number | undefined; readonly high?: number | undefined }, what: string): void {
  checkFinite(quote.value, what);
  const problem = rangeProblem(quote);
  if (problem) throw new RangeError(`${problem} for ${what}`);
}

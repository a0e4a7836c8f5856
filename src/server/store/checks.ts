/**
 * What every adapter refuses before it writes anything, so both stores accept exactly the
 * same price data and a bad row never leaves a batch half-written (RangeError / TypeError).
 */
import type { OfferData } from './prices.ts';
import { rangeProblem } from '../../lib/quotes.ts';

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

/**
 * A finite value, and where a low and a high come with it, a range whose value is its mid
 * (src/lib/quotes.ts): both ends or neither, low ≤ high.
 */
export function checkQuote(quote: { readonly value: number; readonly low?: number | undefined; readonly high?: number | undefined }, what: string): void {
  checkFinite(quote.value, what);
  const problem = rangeProblem(quote);
  if (problem) throw new RangeError(`${problem} for ${what}`);
}

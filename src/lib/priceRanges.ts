/**
 * The sane range of a price per unit: the one place that says what value a form or an import
 * may write for a series (a typo guard, not a market forecast). Bounds are inclusive.
 */
import { decimalsOf, roundTo, type Quoting } from './numbers.ts';
import type { Quote } from './priceTypes.ts';
import { rangeQuote } from './quotes.ts';
import type { PriceUnit } from './units.ts';

export interface ValueRange {
  readonly min: number;
  readonly max: number;
}

export const UNIT_RANGES: Readonly<Record<PriceUnit, ValueRange>> = {
  'US$/bbl': { min: 5, max: 500 },
  'US$/t': { min: 50, max: 10_000 },
  'RMB/t': { min: 500, max: 50_000 },
  '₹/kg': { min: 5, max: 1_000 },
  '₹/US$': { min: 40, max: 200 },
};

/** Null when the value may be written for this unit, else why not. */
export function valueProblem(unit: PriceUnit, value: number): string | null {
  if (!Number.isFinite(value)) return 'the value must be a number';
  if (value <= 0) return 'the value must be positive';
  const range = UNIT_RANGES[unit];
  if (value < range.min || value > range.max) return `the value must be between ${range.min} and ${range.max} ${unit}`;
  return null;
}

/**
 * `valueProblem`, and more decimals than the price is quoted in (its basis, src/lib/numbers.ts):
 * a value the pages would show rounded is refused rather than kept with digits nobody sees.
 */
export function priceProblem(quoting: Quoting, value: number): string | null {
  const problem = valueProblem(quoting.unit, value);
  if (problem) return problem;
  const decimals = decimalsOf(quoting);
  if (roundTo(value, decimals) === value) return null;
  return decimals === 0 ? `the value must be a whole number (${quoting.unit} is quoted without decimals here)` : `the value may have at most ${decimals} decimals (${quoting.unit})`;
}

/**
 * Null when a price may be dated `date`, else why not: a price dated after today (India's
 * calendar day, `isoDateOf(now)`) would become the "latest" on the ticker, and so for alerts,
 * the daily update and the bot, until the calendar caught up with it.
 */
export function priceDateProblem(date: string, today: string): string | null {
  return date > today ? `the date ${date} is after today (${today} IST): a price cannot be dated in the future` : null;
}

/** A price as a form, a file or a JSON body gives it: a value, or a low and a high (the value then optional: the mid). */
export interface QuoteInput {
  readonly value?: number | null | undefined;
  readonly low?: number | null | undefined;
  readonly high?: number | null | undefined;
}

export type QuoteReading = { readonly ok: true; readonly quote: Quote } | { readonly ok: false; readonly field: 'value' | 'low' | 'high'; readonly message: string };

const given = (n: number | null | undefined): n is number => n !== null && n !== undefined;

/**
 * The one rule for a price typed by the desk (the admin form, the CSV import, a JSON write): a
 * single value as `priceProblem` allows it; or, where the basis quotes a range
 * (`quotes: 'range'`, src/lib/basis.ts), a low and a high each allowed by `priceProblem`, the low
 * not above the high, the value their mid (derived; a value given beside them must be it).
 */
export function readQuote(quoting: Quoting & { readonly quotes?: 'single' | 'range' | undefined }, input: QuoteInput): QuoteReading {
  const { low, high, value } = input;
  if (!given(low) && !given(high)) {
    if (!given(value)) return { ok: false, field: 'value', message: 'the value is missing' };
    const problem = priceProblem(quoting, value);
    return problem ? { ok: false, field: 'value', message: problem } : { ok: true, quote: { value } };
  }
  if (quoting.quotes !== 'range') return { ok: false, field: given(low) ? 'low' : 'high', message: 'this price is quoted as a single value, not a range: give the value only' };
  if (!given(high)) return { ok: false, field: 'high', message: 'a range needs its high as well as its low' };
  if (!given(low)) return { ok: false, field: 'low', message: 'a range needs its low as well as its high' };
  const lowProblem = priceProblem(quoting, low);
  if (lowProblem) return { ok: false, field: 'low', message: `the low: ${lowProblem}` };
  const highProblem = priceProblem(quoting, high);
  if (highProblem) return { ok: false, field: 'high', message: `the high: ${highProblem}` };
  if (low > high) return { ok: false, field: 'low', message: `the low (${low}) must not be above the high (${high})` };
  const quote = rangeQuote(low, high);
  if (given(value) && value !== quote.value) return { ok: false, field: 'value', message: `the value of a range is its mid, ${quote.value} (leave it out or give that)` };
  return { ok: true, quote };
}

/**
 * The sane range of a price per unit: the one place that says what value a form or an import
 * may write for a series (a typo guard, not a market forecast). Bounds are inclusive.
 */
import { decimalsOf, roundTo, type Quoting } from './numbers.ts';
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

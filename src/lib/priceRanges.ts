/**
 * The sane range of a price per unit: the one place that says what value a form or an import
 * may write for a series (a typo guard, not a market forecast). Bounds are inclusive.
 */
import type { Unit } from './catalog.ts';

export interface ValueRange {
  readonly min: number;
  readonly max: number;
}

export const UNIT_RANGES: Readonly<Record<Unit, ValueRange>> = {
  'USD/bbl': { min: 5, max: 500 },
  'US$/MT': { min: 50, max: 10_000 },
  'US$/Mt': { min: 50, max: 10_000 },
  'RMB/Mt': { min: 500, max: 50_000 },
  'Rs/Kg': { min: 5, max: 1_000 },
  'INR/USD': { min: 40, max: 200 },
};

/** Null when the value may be written for this unit, else why not. */
export function valueProblem(unit: Unit, value: number): string | null {
  if (!Number.isFinite(value)) return 'the value must be a number';
  if (value <= 0) return 'the value must be positive';
  const range = UNIT_RANGES[unit];
  if (value < range.min || value > range.max) return `the value must be between ${range.min} and ${range.max} ${unit}`;
  return null;
}

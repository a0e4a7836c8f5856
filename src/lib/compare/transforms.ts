/**
 * What a comparison does to a line after conversion (pure): index it to 100 at its first point,
 * smooth it with a trailing moving average, and sum it up over the range.
 */
import type { IsoDate } from '../dates.ts';
import type { PricePoint } from '../priceTypes.ts';
import { round4 } from './units.ts';

export const views = ['prices', 'indexed'] as const;
export type CompareView = (typeof views)[number];
export const isView = (value: string): value is CompareView => (views as readonly string[]).includes(value);

/** Moving-average windows, in points (0: none). */
export const movingAverages = [0, 7, 30] as const;
export type MovingAverage = (typeof movingAverages)[number];
export const isMovingAverage = (value: number): value is MovingAverage => (movingAverages as readonly number[]).includes(value);

/**
 * Each value as a percentage of the line's first value (the first point is 100). A line whose
 * first value is zero has no index and comes back empty.
 */
export function indexTo100(points: readonly PricePoint[]): PricePoint[] {
  const base = points[0]?.value;
  if (base === undefined || base === 0 || !Number.isFinite(base)) return [];
  return points.map((p) => ({ date: p.date, value: round4((p.value / base) * 100) }));
}

/**
 * Trailing simple moving average over `window` points: each point from the `window`-th on is
 * the mean of itself and the `window − 1` before it (points, not days: weekly series average
 * over weeks). Fewer points than the window give an empty line. `window` 0 or 1 returns the
 * points as they are.
 */
export function movingAverage(points: readonly PricePoint[], window: number): PricePoint[] {
  if (window <= 1) return [...points];
  const out: PricePoint[] = [];
  let sum = 0;
  for (let i = 0; i < points.length; i++) {
    sum += points[i]!.value;
    if (i >= window) sum -= points[i - window]!.value;
    if (i >= window - 1) out.push({ date: points[i]!.date, value: round4(sum / window) });
  }
  return out;
}

/** A line's figures over the range shown. */
export interface LineStats {
  readonly first: PricePoint;
  readonly last: PricePoint;
  /** last − first. */
  readonly change: number;
  /** change ÷ first × 100; null when the first value is 0. */
  readonly changePct: number | null;
  readonly min: PricePoint;
  readonly max: PricePoint;
  readonly average: number;
  readonly count: number;
}

/** Last, change and % change against the first point, min, max (first occurrence) and mean. */
export function lineStats(points: readonly PricePoint[]): LineStats | null {
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last) return null;
  let min = first;
  let max = first;
  let sum = 0;
  for (const p of points) {
    if (p.value < min.value) min = p;
    if (p.value > max.value) max = p;
    sum += p.value;
  }
  const change = round4(last.value - first.value);
  return {
    first,
    last,
    change,
    changePct: first.value === 0 ? null : round4(((last.value - first.value) / first.value) * 100),
    min,
    max,
    average: round4(sum / points.length),
    count: points.length,
  };
}

/** Points inside [from, to] (inclusive; ascending input). */
export const within = (points: readonly PricePoint[], from: IsoDate, to: IsoDate): PricePoint[] =>
  points.filter((p) => p.date >= from && p.date <= to);

/**
 * A forecast of a price series, as the desk publishes it or the statistical baseline computes
 * it: a direction (up, flat, down) and a range (low–high) for the series' value at the end of
 * a horizon, from a base (the last price known at publication). Never edited after
 * publication: a correction is a new forecast that names the one it supersedes. Pure: the
 * store (next phase) keeps these records as they are; everything here is derived from them.
 */
import { addDays, daysBetween, type IsoDate } from '../dates.ts';
import { roundTo } from '../numbers.ts';
import type { PricePoint } from '../priceTypes.ts';
import type { Frequency } from '../seriesCatalog.ts';

export const horizons = ['1w', '1m', '3m'] as const;
export type Horizon = (typeof horizons)[number];
export const isHorizon = (value: string): value is Horizon => (horizons as readonly string[]).includes(value);

export const HORIZON_LABELS: Readonly<Record<Horizon, string>> = { '1w': '1 week', '1m': '1 month', '3m': '3 months' };
/** The horizon before a noun: "a 3-month call". */
export const HORIZON_ADJECTIVES: Readonly<Record<Horizon, string>> = { '1w': '1-week', '1m': '1-month', '3m': '3-month' };

export const directions = ['up', 'flat', 'down'] as const;
export type Direction = (typeof directions)[number];

export const DIRECTION_LABELS: Readonly<Record<Direction, string>> = { up: 'Up', flat: 'Flat', down: 'Down' };

/** Who made a forecast: a desk member (editor or admin), or the statistical baseline. */
export type ForecastMaker =
  | { readonly kind: 'desk'; readonly uid: string; readonly name: string }
  | { readonly kind: 'baseline'; readonly method: BaselineMethod };

/**
 * `ets`: exponential smoothing, the model chosen by AICc among ETS(A,N,N), (A,A,N) and
 * (A,Ad,N); `naive`: the last price with the random walk's interval, used only when no ETS
 * model can be fitted (a series that never moved). See baseline.ts.
 */
export type BaselineMethod = 'ets' | 'naive';

export interface Forecast {
  /** Desk: made by the server at publication. Baseline: `baseline.{series}.{horizon}.{baseDate}`. */
  readonly id: string;
  readonly seriesId: string;
  readonly horizon: Horizon;
  readonly direction: Direction;
  /** The range for the value at `endDate`, in the series' unit; low < high. */
  readonly low: number;
  readonly high: number;
  /** Markdown (rendered and sanitised like a post's body). */
  readonly rationale: string;
  readonly by: ForecastMaker;
  /** ISO instant. */
  readonly publishedAt: string;
  /** The last price known at publication: its date and value. */
  readonly baseDate: IsoDate;
  readonly baseValue: number;
  /** `horizonEnd(baseDate, horizon)`, kept on the record so stores can ask "ended by". */
  readonly endDate: IsoDate;
  /** "Flat" means the value at `endDate` is within ± this % of the base (fixed at publication). */
  readonly flatBandPct: number;
  /** The forecast this one corrects (both stay visible), or null. */
  readonly supersedes: string | null;
}

export const isDesk = (f: Pick<Forecast, 'by'>): boolean => f.by.kind === 'desk';
export const isBaseline = (f: Pick<Forecast, 'by'>): boolean => f.by.kind === 'baseline';
export const rangeMid = (f: Pick<Forecast, 'low' | 'high'>): number => (f.low + f.high) / 2;

// ---- horizons and the calendar -----------------------------------------------------------

const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The same day `months` calendar months later, or that month's last day (31 Jan + 1 month = 28/29 Feb). */
export function addCalendarMonths(date: IsoDate, months: number): IsoDate {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const day = Math.min(d, daysInMonth(year, month));
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * The date a forecast is for: its base date plus the horizon (7 days, 1 or 3 calendar
 * months). Anchored on the base date, not the publication: a forecast and the baseline made
 * from the same last price are for the same day, and a late publication does not stretch it.
 */
export function horizonEnd(baseDate: IsoDate, horizon: Horizon): IsoDate {
  switch (horizon) {
    case '1w':
      return addDays(baseDate, 7);
    case '1m':
      return addCalendarMonths(baseDate, 1);
    case '3m':
      return addCalendarMonths(baseDate, 3);
  }
}

const weekdayOf = (date: IsoDate): number => new Date(`${date}T00:00:00Z`).getUTCDay();

/**
 * How many observations of a series fall after `baseDate` up to `endDate`: weekdays for a
 * daily series (feedstocks and USD/INR are assessed Monday to Friday), whole weeks for a weekly
 * one. The baseline forecasts that many steps ahead.
 */
export function observationSteps(frequency: Frequency, baseDate: IsoDate, endDate: IsoDate): number {
  const days = daysBetween(baseDate, endDate);
  if (days <= 0) return 0;
  if (frequency === 'weekly') return Math.floor(days / 7);
  const weeks = Math.floor(days / 7);
  let steps = weeks * 5;
  for (let date = addDays(baseDate, weeks * 7 + 1); date <= endDate; date = addDays(date, 1)) {
    const dow = weekdayOf(date);
    if (dow !== 0 && dow !== 6) steps++;
  }
  return steps;
}

/** The usual number of observations in a horizon (the flat band's move length). */
export const NOMINAL_STEPS: Readonly<Record<Frequency, Readonly<Record<Horizon, number>>>> = {
  daily: { '1w': 5, '1m': 21, '3m': 63 },
  weekly: { '1w': 1, '1m': 4, '3m': 13 },
};

// ---- "flat" ------------------------------------------------------------------------------

/**
 * What "flat" means, per series and horizon: within ± half the series' median absolute move
 * over that horizon in the two years before the base date, rounded to 0.1 % and kept within
 * 0.2–10 %. A fixed ±x % would make USD/INR (≈ 0.5 % a month) almost always flat and
 * butadiene (≈ 8 % a month) never; half the median move makes "flat" mean "moved less than
 * usual" everywhere, about a quarter of outcomes when moves are roughly normal.
 */
export const FLAT_BAND = {
  fraction: 0.5,
  minPct: 0.2,
  maxPct: 10,
  lookbackDays: 730,
  /** Fewer moves than this in the look-back: the fallback per horizon. */
  minMoves: 10,
  fallbackPct: { '1w': 1, '1m': 2, '3m': 3 } as Readonly<Record<Horizon, number>>,
} as const;

const round1 = (value: number): number => roundTo(value, 1);

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The flat band (± % of the base) for a forecast made on `baseDate` from `points` (ascending). */
export function flatBandPct(points: readonly PricePoint[], frequency: Frequency, horizon: Horizon, baseDate: IsoDate): number {
  const from = addDays(baseDate, -FLAT_BAND.lookbackDays);
  const window = points.filter((p) => p.date >= from && p.date <= baseDate && p.value > 0);
  const step = NOMINAL_STEPS[frequency][horizon];
  const moves: number[] = [];
  for (let i = 0; i + step < window.length; i++) moves.push(Math.abs(window[i + step]!.value / window[i]!.value - 1) * 100);
  if (moves.length < FLAT_BAND.minMoves) return FLAT_BAND.fallbackPct[horizon];
  return Math.min(FLAT_BAND.maxPct, Math.max(FLAT_BAND.minPct, round1(FLAT_BAND.fraction * median(moves))));
}

/** The flat band's edges in the series' unit. */
export const flatEdges = (baseValue: number, bandPct: number): { readonly lower: number; readonly upper: number } => ({
  lower: baseValue * (1 - bandPct / 100),
  upper: baseValue * (1 + bandPct / 100),
});

/** The % change from the base. */
export const pctFromBase = (value: number, baseValue: number): number => ((value - baseValue) / baseValue) * 100;

/** Up, flat or down: beyond the band either way, or within it (its edges count as flat). */
export function directionOf(value: number, baseValue: number, bandPct: number): Direction {
  // A hair of tolerance: 1,150 × 1.02 computed two ways must not fall either side of the edge.
  const pct = pctFromBase(value, baseValue);
  if (pct > bandPct + 1e-9) return 'up';
  if (pct < -bandPct - 1e-9) return 'down';
  return 'flat';
}

/**
 * Whether a range allows its stated direction: "up" needs a high above the band, "down" a low
 * below it, "flat" a range that meets the band. A desk call that contradicts itself is refused.
 */
export function rangeAllows(direction: Direction, low: number, high: number, baseValue: number, bandPct: number): boolean {
  const { lower, upper } = flatEdges(baseValue, bandPct);
  if (direction === 'up') return directionOf(high, baseValue, bandPct) === 'up';
  if (direction === 'down') return directionOf(low, baseValue, bandPct) === 'down';
  return low <= upper + 1e-9 * baseValue && high >= lower - 1e-9 * baseValue;
}

/** The last point on or before `date` (points ascending), or null. */
export function lastPointOn(points: readonly PricePoint[], date: IsoDate): PricePoint | null {
  let lo = 0;
  let hi = points.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (points[mid]!.date <= date) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? points[lo - 1]! : null;
}

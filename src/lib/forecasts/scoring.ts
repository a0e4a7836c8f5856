/**
 * Scoring a forecast against what happened, pure. Which price counts:
 *
 *   - the series' point on the horizon's end date;
 *   - else the last point before it within the tolerance (4 days for a daily series: a weekend
 *     and a holiday; 6 days for a weekly one: its one point of that week), and never the base
 *     date itself or earlier; that fallback waits SETTLE_DAYS after the end date, because the
 *     end date's own price may still be on its way;
 *   - none: the call is "awaiting a price" (unscorable yet), and is scored when one lands.
 *
 * A score is made once and kept (the store holds it). It changes only when the price it rests
 * on changes (a correction, a deletion, a late point in its window): then it is re-scored, the
 * revision goes up and the earlier outcome stays on the record, so the page can mark it.
 */
import { addDays, daysBetween, type IsoDate } from '../dates.ts';
import type { PricePoint } from '../priceTypes.ts';
import type { Frequency } from '../seriesCatalog.ts';
import { directionOf, rangeMid, type Direction, type Forecast } from './model.ts';

export const ACTUAL_TOLERANCE_DAYS: Readonly<Record<Frequency, number>> = { daily: 4, weekly: 6 };
export const SETTLE_DAYS = 3;

/** The dates whose points may count as a forecast's actual price. */
export function actualWindow(forecast: Pick<Forecast, 'baseDate' | 'endDate'>, frequency: Frequency): { readonly from: IsoDate; readonly to: IsoDate } {
  const earliest = addDays(forecast.endDate, -ACTUAL_TOLERANCE_DAYS[frequency]);
  const afterBase = addDays(forecast.baseDate, 1);
  return { from: earliest > afterBase ? earliest : afterBase, to: forecast.endDate };
}

export type ActualPick =
  | { readonly kind: 'open' }
  | { readonly kind: 'awaiting' }
  | { readonly kind: 'found'; readonly point: PricePoint };

/** The price a forecast is scored against, on `today` (points ascending; any range that covers the window). */
export function actualFor(forecast: Pick<Forecast, 'baseDate' | 'endDate'>, frequency: Frequency, points: readonly PricePoint[], today: IsoDate): ActualPick {
  if (today < forecast.endDate) return { kind: 'open' };
  const { from, to } = actualWindow(forecast, frequency);
  let last: PricePoint | null = null;
  for (const p of points) if (p.date >= from && p.date <= to && (last === null || p.date > last.date)) last = p;
  if (last && (last.date === forecast.endDate || daysBetween(forecast.endDate, today) >= SETTLE_DAYS)) return { kind: 'found', point: last };
  return { kind: 'awaiting' };
}

export interface Outcome {
  readonly insideRange: boolean;
  /** Where the price went, by the forecast's own flat band. */
  readonly actualDirection: Direction;
  readonly directionRight: boolean;
  /** |actual − range mid| ÷ actual × 100 (the percentage error of Hyndman & Athanasopoulos). */
  readonly absPctError: number;
}

export function outcomeOf(forecast: Pick<Forecast, 'low' | 'high' | 'baseValue' | 'flatBandPct' | 'direction'>, actual: number): Outcome {
  const actualDirection = directionOf(actual, forecast.baseValue, forecast.flatBandPct);
  return {
    insideRange: actual >= forecast.low && actual <= forecast.high,
    actualDirection,
    directionRight: actualDirection === forecast.direction,
    absPctError: (Math.abs(actual - rangeMid(forecast)) / actual) * 100,
  };
}

/** One scoring of a forecast. `actual: null` after a correction took its price away. */
export interface ScoreRevision {
  readonly scoredAt: string;
  readonly actual: PricePoint | null;
  readonly outcome: Outcome | null;
}

/** The record the store keeps per forecast (identity: `forecastId`). */
export interface Score extends ScoreRevision {
  readonly forecastId: string;
  /** 1 when first scored; each re-score after a price correction adds one. */
  readonly revision: number;
  /** The earlier revisions, oldest first (empty until a correction). */
  readonly earlier: readonly ScoreRevision[];
}

const sameActual = (a: PricePoint | null, b: PricePoint | null): boolean =>
  a === null || b === null ? a === b : a.date === b.date && a.value === b.value;

/**
 * The score a forecast has on `today`, given the one already kept (`previous`, or null):
 * null while it cannot be scored yet; `previous` itself (the same object) while the price it
 * rests on is unchanged; a new revision when that price changed. Call it for every forecast
 * whose horizon has ended when it has no score yet, and for those whose actual window a price
 * write touched (`touchedBy`).
 */
export function scoreFor(
  forecast: Forecast,
  frequency: Frequency,
  points: readonly PricePoint[],
  today: IsoDate,
  previous: Score | null,
  now: Date,
): Score | null {
  const pick = actualFor(forecast, frequency, points, today);
  // A clock that went back does not undo a score.
  if (pick.kind === 'open') return previous;
  const actual = pick.kind === 'found' ? pick.point : null;
  if (previous === null) {
    return actual === null ? null : { forecastId: forecast.id, revision: 1, scoredAt: now.toISOString(), actual, outcome: outcomeOf(forecast, actual.value), earlier: [] };
  }
  if (sameActual(previous.actual, actual)) return previous;
  return {
    forecastId: forecast.id,
    revision: previous.revision + 1,
    scoredAt: now.toISOString(),
    actual,
    outcome: actual === null ? null : outcomeOf(forecast, actual.value),
    earlier: [...previous.earlier, { scoredAt: previous.scoredAt, actual: previous.actual, outcome: previous.outcome }],
  };
}

/** Whether a price write on these dates may change a forecast's score (its actual window holds one). */
export function touchedBy(forecast: Pick<Forecast, 'baseDate' | 'endDate'>, frequency: Frequency, changedDates: readonly IsoDate[]): boolean {
  const { from, to } = actualWindow(forecast, frequency);
  return changedDates.some((date) => date >= from && date <= to);
}

export type CallStatus = 'open' | 'awaiting' | 'scored' | 'withdrawn';

/** How a call stands for a reader: open until its end date has passed, then scored or awaiting a price. */
export function callStatus(forecast: Pick<Forecast, 'endDate'>, score: Score | null, today: IsoDate): CallStatus {
  if (score) return score.actual === null ? 'withdrawn' : 'scored';
  return today <= forecast.endDate ? 'open' : 'awaiting';
}

/**
 * Matured: the horizon's last day is over. Only matured calls are shown to everyone; an open
 * call (its end date today or later) stays behind the plan that opens future trends.
 */
export const isMatured = (forecast: Pick<Forecast, 'endDate'>, today: IsoDate): boolean => forecast.endDate < today;

/**
 * The scoreboard of a series' forecasts over the last twelve months, desk against baseline,
 * and the predicted-vs-actual rows of its chart. Pure.
 *
 * Which calls count: every scored desk call whose end date falls in the twelve months up to
 * today, superseded ones included (a track record one could prune by correcting is not one),
 * and, for the baseline, the baseline made from the same last price (same series, horizon and
 * base date): the two are asked the same question on the same day. A score whose price was
 * taken away by a correction (`actual: null`) does not count until it is re-scored.
 */
import type { IsoDate } from '../dates.ts';
import { FIGURE_DECIMALS, roundTo } from '../numbers.ts';
import { lastTwelveMonths } from '../series.ts';
import { isBaseline, isDesk, pctFromBase, rangeMid, type Forecast, type Horizon } from './model.ts';
import type { Outcome, Score } from './scoring.ts';

export interface Tally {
  /** Scored calls counted. */
  readonly calls: number;
  readonly inside: number;
  readonly directionRight: number;
  /** Share of calls whose range held the actual price (0–1), null without calls. */
  readonly hitRate: number | null;
  /** Share of calls whose direction was right (0–1). */
  readonly directionAccuracy: number | null;
  /** Mean absolute % error of the range's mid. */
  readonly mape: number | null;
  /** Mean width of the range, % of the base: a wide range buys hits, this shows the price. */
  readonly meanWidthPct: number | null;
}

export interface ScoredCall {
  readonly forecast: Forecast;
  readonly outcome: Outcome;
}

export function tally(calls: readonly ScoredCall[]): Tally {
  const n = calls.length;
  const inside = calls.filter((c) => c.outcome.insideRange).length;
  const directionRight = calls.filter((c) => c.outcome.directionRight).length;
  const mean = (f: (c: ScoredCall) => number) => (n === 0 ? null : calls.reduce((sum, c) => sum + f(c), 0) / n);
  return {
    calls: n,
    inside,
    directionRight,
    hitRate: n === 0 ? null : inside / n,
    directionAccuracy: n === 0 ? null : directionRight / n,
    mape: mean((c) => c.outcome.absPctError),
    meanWidthPct: mean((c) => ((c.forecast.high - c.forecast.low) / c.forecast.baseValue) * 100),
  };
}

/** The key that pairs a desk call with the baseline made from the same last price. */
export const twinKey = (f: Pick<Forecast, 'seriesId' | 'horizon' | 'baseDate'>): string => `${f.seriesId}|${f.horizon}|${f.baseDate}`;

export interface Scoreboard {
  readonly from: IsoDate;
  readonly to: IsoDate;
  readonly horizon: Horizon | 'all';
  readonly desk: Tally;
  /** The baselines made from the same last prices as the desk calls counted (each once). */
  readonly baseline: Tally;
  /** Desk calls whose baseline twin is scored too. */
  readonly pairs: number;
  /** Of those pairs, how often the desk's mid was closer to the price than the baseline's. */
  readonly deskCloser: number;
}

const scoredOf = (forecast: Forecast, scores: ReadonlyMap<string, Score>): ScoredCall | null => {
  const outcome = scores.get(forecast.id)?.outcome ?? null;
  return outcome ? { forecast, outcome } : null;
};

/** The desk calls the scoreboard counts, oldest end date first. */
export function deskCallsCounted(forecasts: readonly Forecast[], scores: ReadonlyMap<string, Score>, today: IsoDate, horizon: Horizon | 'all' = 'all'): ScoredCall[] {
  const { from, to } = lastTwelveMonths(today);
  return forecasts
    .filter((f) => isDesk(f) && (horizon === 'all' || f.horizon === horizon) && f.endDate >= from && f.endDate <= to)
    .map((f) => scoredOf(f, scores))
    .filter((c): c is ScoredCall => c !== null)
    .sort((a, b) => a.forecast.endDate.localeCompare(b.forecast.endDate) || a.forecast.publishedAt.localeCompare(b.forecast.publishedAt));
}

export function scoreboardOf(forecasts: readonly Forecast[], scores: ReadonlyMap<string, Score>, today: IsoDate, horizon: Horizon | 'all' = 'all'): Scoreboard {
  const { from, to } = lastTwelveMonths(today);
  const desk = deskCallsCounted(forecasts, scores, today, horizon);
  const baselines = new Map(forecasts.filter(isBaseline).map((f) => [twinKey(f), f]));
  const twins = new Map<string, ScoredCall>();
  let pairs = 0;
  let deskCloser = 0;
  for (const call of desk) {
    const twin = baselines.get(twinKey(call.forecast));
    const scoredTwin = twin ? scoredOf(twin, scores) : null;
    if (!scoredTwin) continue;
    twins.set(twin!.id, scoredTwin);
    pairs++;
    if (call.outcome.absPctError < scoredTwin.outcome.absPctError) deskCloser++;
  }
  return { from, to, horizon, desk: tally(desk), baseline: tally([...twins.values()]), pairs, deskCloser };
}

/** A predicted-vs-actual row in some measure (the series' unit, or % from the call's base). */
export interface PredictedVsActualPoint {
  readonly endDate: IsoDate;
  readonly baseDate: IsoDate;
  readonly low: number;
  readonly high: number;
  readonly mid: number;
  readonly actual: number;
  readonly insideRange: boolean;
  readonly directionRight: boolean;
  /** The baseline twin's range and mid, when it was made. */
  readonly baseline: { readonly low: number; readonly high: number; readonly mid: number } | null;
}

export interface PredictedVsActualRow extends PredictedVsActualPoint {
  readonly baseValue: number;
}

/**
 * One row per end date of the scored desk calls of one horizon in the last twelve months (a
 * correction with the same end date: the later publication), oldest first: the chart of
 * predicted against actual prices.
 */
export function predictedVsActual(forecasts: readonly Forecast[], scores: ReadonlyMap<string, Score>, today: IsoDate, horizon: Horizon): PredictedVsActualRow[] {
  const baselines = new Map(forecasts.filter(isBaseline).map((f) => [twinKey(f), f]));
  const byEnd = new Map<IsoDate, PredictedVsActualRow>();
  for (const { forecast: f, outcome } of deskCallsCounted(forecasts, scores, today, horizon)) {
    const actual = scores.get(f.id)!.actual!.value;
    const twin = baselines.get(twinKey(f));
    byEnd.set(f.endDate, {
      endDate: f.endDate,
      baseDate: f.baseDate,
      baseValue: f.baseValue,
      low: f.low,
      high: f.high,
      mid: rangeMid(f),
      actual,
      insideRange: outcome.insideRange,
      directionRight: outcome.directionRight,
      baseline: twin ? { low: twin.low, high: twin.high, mid: rangeMid(twin) } : null,
    });
  }
  return [...byEnd.values()];
}

/** The same rows as % changes from each call's base: what may be shown without price levels. */
export function asChangeFromBase(row: PredictedVsActualRow): PredictedVsActualPoint {
  const pct = (value: number) => roundTo(pctFromBase(value, row.baseValue), FIGURE_DECIMALS);
  return {
    endDate: row.endDate,
    baseDate: row.baseDate,
    insideRange: row.insideRange,
    directionRight: row.directionRight,
    low: pct(row.low),
    high: pct(row.high),
    mid: pct(row.mid),
    actual: pct(row.actual),
    baseline: row.baseline ? { low: pct(row.baseline.low), high: pct(row.baseline.high), mid: pct(row.baseline.mid) } : null,
  };
}

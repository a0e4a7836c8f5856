/**
 * The statistical baseline every desk call is measured against: exponential smoothing (ETS)
 * with additive errors, the model (no trend, Holt's linear trend, or damped trend: ETS(A,N,N),
 * (A,A,N), (A,Ad,N)) chosen by AICc, fitted by maximum likelihood to the series' last two years
 * and forecast to each horizon's end with its 80% prediction interval (Hyndman &
 * Athanasopoulos, Forecasting: Principles and Practice, 3rd ed., §8.1–8.7). The fitting is the
 * engine's (src/server/forecasts/ets.ts: augurs' AutoETS, a port of the R forecast package's
 * ets()); this module decides what it is fitted to and what becomes of its answer, and stays
 * pure. One fit per series and base date serves all three horizons.
 *
 * A series no ETS model can be fitted to (one that never moved) gets the naive forecast: the
 * last price, with the random walk's interval ±z·σ·√h (FPP3 §5.5), σ from its daily changes.
 */
import { addDays, type IsoDate } from '../dates.ts';
import { roundTo } from '../numbers.ts';
import type { PricePoint } from '../priceTypes.ts';
import type { SeriesDef } from '../seriesCatalog.ts';
import { directionOf, flatBandPct, horizonEnd, horizons, lastPointOn, observationSteps, type BaselineMethod, type Forecast } from './model.ts';

export interface EtsPrediction {
  readonly point: readonly number[];
  readonly lower: readonly number[];
  readonly upper: readonly number[];
}

/** Fits a model to `values` (oldest first) and predicts 1…`steps` ahead with intervals at `level` (0–1). Throws when no model fits. */
export interface EtsEngine {
  fit(values: readonly number[], steps: number, level: number): EtsPrediction;
}

export const BASELINE = {
  /** The prediction interval that is the baseline's range. */
  level: 0.8,
  /** The standard normal quantile of that level (two-sided): the naive fallback's interval. */
  z: 1.2815515655446004,
  /** Fitted to the points of the last two years before the base date. */
  windowDays: 730,
  /** Fewer points than this: no baseline (a new series). */
  minPoints: 30,
} as const;

/** The baseline's rationale, the same on every record (the page explains the method). */
export const BASELINE_RATIONALE: Readonly<Record<BaselineMethod, string>> = {
  ets: 'Exponential smoothing (ETS with additive errors; no trend, linear or damped trend chosen by AICc) fitted to the last two years of prices. The range is its 80% prediction interval.',
  naive: 'The last price, with the 80% interval of a random walk (no exponential smoothing model could be fitted).',
};

export const baselineId = (seriesId: string, horizon: string, baseDate: IsoDate): string => `baseline.${seriesId}.${horizon}.${baseDate}`;

const round2 = (value: number): number => roundTo(value, 2);

/** The naive method's forecast: the last value, ±z·σ·√h with σ the RMS of one-step changes. */
export function naivePrediction(values: readonly number[], steps: number, z: number): EtsPrediction {
  const last = values.at(-1)!;
  let sum = 0;
  for (let i = 1; i < values.length; i++) sum += (values[i]! - values[i - 1]!) ** 2;
  const sigma = values.length > 1 ? Math.sqrt(sum / (values.length - 1)) : 0;
  const point = Array.from({ length: steps }, () => last);
  return {
    point,
    lower: point.map((p, i) => p - z * sigma * Math.sqrt(i + 1)),
    upper: point.map((p, i) => p + z * sigma * Math.sqrt(i + 1)),
  };
}

const usable = (p: EtsPrediction, steps: number): boolean =>
  [p.point, p.lower, p.upper].every((list) => list.length >= steps && list.slice(0, steps).every(Number.isFinite));

/**
 * The baseline's forecasts (one per horizon) made from the last point on or before `baseDate`
 * (default: the last point), using only points up to it. [] when the series has too few.
 */
export function baselineForecasts(series: SeriesDef, points: readonly PricePoint[], engine: EtsEngine, now: Date, baseDate?: IsoDate): Forecast[] {
  const base = baseDate === undefined ? (points.at(-1) ?? null) : lastPointOn(points, baseDate);
  if (!base) return [];
  const from = addDays(base.date, -BASELINE.windowDays);
  const window = points.filter((p) => p.date > from && p.date <= base.date);
  if (window.length < BASELINE.minPoints) return [];
  const values = window.map((p) => p.value);
  const ends = horizons.map((horizon) => ({ horizon, endDate: horizonEnd(base.date, horizon) }));
  const steps = ends.map(({ endDate }) => Math.max(1, observationSteps(series.frequency, base.date, endDate)));
  const maxSteps = Math.max(...steps);

  let method: BaselineMethod = 'ets';
  let prediction: EtsPrediction | null = null;
  try {
    prediction = engine.fit(values, maxSteps, BASELINE.level);
  } catch {
    prediction = null;
  }
  if (!prediction || !usable(prediction, maxSteps)) {
    method = 'naive';
    prediction = naivePrediction(values, maxSteps, BASELINE.z);
  }

  return ends.map(({ horizon, endDate }, i) => {
    const at = steps[i]! - 1;
    const point = prediction.point[at]!;
    // Prices are positive: an interval reaching below zero is cut there.
    const low = round2(Math.max(0, prediction.lower[at]!));
    const high = round2(Math.max(low + 0.01, prediction.upper[at]!));
    const band = flatBandPct(window, series.frequency, horizon, base.date);
    return {
      id: baselineId(series.id, horizon, base.date),
      seriesId: series.id,
      horizon,
      direction: directionOf(point, base.value, band),
      low,
      high,
      rationale: BASELINE_RATIONALE[method],
      by: { kind: 'baseline', method },
      publishedAt: now.toISOString(),
      baseDate: base.date,
      baseValue: base.value,
      endDate,
      flatBandPct: band,
      supersedes: null,
    };
  });
}

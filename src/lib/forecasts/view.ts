/**
 * What the forecast pages show, pure: the latest open desk call and baseline per horizon, the
 * list of calls with their outcomes, the charts' lines and bands, and the public track record,
 * which holds matured calls only and no price levels (changes from each call's base instead).
 *
 * Who sees what: a future-trend page (`full` in the access policy) shows everything, open calls
 * and prices included. The public track record (`/future-trend/{product}/track-record`) shows
 * the scoreboard and the calls whose horizon is over, as % changes from their base, as the home
 * page's teaser shows a shape without figures: the prices themselves stay a subscriber's.
 */
import type { ChartBand } from '../chartBands.ts';
import { PALETTE } from '../chartPalette.ts';
import { toDisplayDate, type IsoDate } from '../dates.ts';
import { FIGURE_DECIMALS, formatNumber, roundTo } from '../numbers.ts';
import type { PricePoint } from '../priceTypes.ts';
import type { ChartLine } from '../series.ts';
import { changeRangeText, plainPct, rangeText, signedPct } from './format.ts';
import { isBaseline, isDesk, pctFromBase, rangeMid, type Direction, type Forecast, type Horizon } from './model.ts';
import { asChangeFromBase, predictedVsActual, scoreboardOf, type PredictedVsActualPoint, type Scoreboard } from './scoreboard.ts';
import { callStatus, isMatured, type CallStatus, type Outcome, type Score } from './scoring.ts';

const newestFirst = (a: Forecast, b: Forecast): number => b.publishedAt.localeCompare(a.publishedAt) || b.id.localeCompare(a.id);

/** Ids of the forecasts some other forecast corrects. */
const supersededIds = (forecasts: readonly Forecast[]): Set<string> => new Set(forecasts.flatMap((f) => (f.supersedes ? [f.supersedes] : [])));

/** The desk's newest call of a horizon that is still open on `today` and not corrected since; null when none. */
export function latestOpenDeskCall(forecasts: readonly Forecast[], horizon: Horizon, today: IsoDate): Forecast | null {
  const superseded = supersededIds(forecasts);
  return forecasts.filter((f) => isDesk(f) && f.horizon === horizon && !isMatured(f, today) && !superseded.has(f.id)).sort(newestFirst)[0] ?? null;
}

/** The baseline's newest forecast of a horizon (from the latest price), or null. */
export function latestBaseline(forecasts: readonly Forecast[], horizon: Horizon): Forecast | null {
  return forecasts.filter((f) => isBaseline(f) && f.horizon === horizon).sort((a, b) => b.baseDate.localeCompare(a.baseDate) || newestFirst(a, b))[0] ?? null;
}

export interface CallRow {
  readonly forecast: Forecast;
  readonly status: CallStatus;
  readonly score: Score | null;
  /** The id of the call that corrects this one, if any. */
  readonly supersededBy: string | null;
}

/** The desk's calls of a horizon, newest first, each with how it stands. */
export function deskCallRows(forecasts: readonly Forecast[], scores: ReadonlyMap<string, Score>, today: IsoDate, horizon: Horizon): CallRow[] {
  const correctedBy = new Map(forecasts.flatMap((f) => (f.supersedes ? [[f.supersedes, f.id] as const] : [])));
  return forecasts
    .filter((f) => isDesk(f) && f.horizon === horizon)
    .sort(newestFirst)
    .map((forecast) => {
      const score = scores.get(forecast.id) ?? null;
      return { forecast, status: callStatus(forecast, score, today), score, supersededBy: correctedBy.get(forecast.id) ?? null };
    });
}

// ---- charts -------------------------------------------------------------------------------

export const FAN_COLORS = { price: PALETTE[0]!, desk: PALETTE[1]!, baseline: PALETTE[2]! } as const;
/** Line names: short, for the legend's fixed item width. */
export const FAN_NAMES = { price: 'Price', desk: 'Desk (mid)', baseline: 'Baseline (mid)' } as const;

/**
 * The future-trend chart: the recent prices, then the desk's range and the baseline's 80 %
 * interval as fans from their base prices to their end dates (each with its mid as a line, so
 * the pointer reads it and the lines' dates reach the end).
 */
export function fanChart(history: readonly PricePoint[], desk: Forecast | null, baseline: Forecast | null): { lines: ChartLine[]; bands: ChartBand[] } {
  const lines: ChartLine[] = [{ id: FAN_NAMES.price, data: history.map((p) => ({ x: p.date, y: p.value })) }];
  const bands: ChartBand[] = [];
  const fan = (f: Forecast, name: string, color: string) => {
    lines.push({ id: name, data: [{ x: f.baseDate, y: f.baseValue }, { x: f.endDate, y: rangeMid(f) }] });
    bands.push({ id: name, color, points: [{ x: f.baseDate, low: f.baseValue, high: f.baseValue }, { x: f.endDate, low: f.low, high: f.high }] });
  };
  if (desk) fan(desk, FAN_NAMES.desk, FAN_COLORS.desk);
  if (baseline) fan(baseline, FAN_NAMES.baseline, FAN_COLORS.baseline);
  // A fan may start before the first price shown: the lines' dates are the chart's span.
  return { lines, bands };
}

export const PVA_NAMES = { actual: 'Price at end', desk: 'Desk (mid)', baseline: 'Baseline (mid)' } as const;

/** Predicted against actual: the price (or change) at each end date, the desk's and the baseline's mids, the desk's range shaded. */
export function predictedVsActualChart(rows: readonly PredictedVsActualPoint[]): { lines: ChartLine[]; bands: ChartBand[] } {
  const lines: ChartLine[] = [
    { id: PVA_NAMES.actual, data: rows.map((r) => ({ x: r.endDate, y: r.actual })) },
    { id: PVA_NAMES.desk, data: rows.map((r) => ({ x: r.endDate, y: r.mid })) },
  ];
  const twins = rows.filter((r) => r.baseline !== null);
  if (twins.length > 0) lines.push({ id: PVA_NAMES.baseline, data: twins.map((r) => ({ x: r.endDate, y: r.baseline!.mid })) });
  const bands: ChartBand[] = rows.length > 1 ? [{ id: 'Desk range', color: FAN_COLORS.desk, points: rows.map((r) => ({ x: r.endDate, low: r.low, high: r.high })) }] : [];
  return { lines, bands };
}

// ---- the public track record ----------------------------------------------------------------

/** A matured call as everyone may see it: what was called and what came, as % of its base. */
export interface PublicCall {
  readonly id: string;
  readonly horizon: Horizon;
  readonly publishedAt: string;
  readonly baseDate: IsoDate;
  readonly endDate: IsoDate;
  readonly direction: Direction;
  readonly flatBandPct: number;
  /** The range as % changes from the base. */
  readonly lowPct: number;
  readonly highPct: number;
  readonly supersedes: string | null;
  readonly supersededBy: string | null;
  readonly status: Exclude<CallStatus, 'open'>;
  /** The change to the price that counted, % of the base; null while awaiting one. */
  readonly actualPct: number | null;
  readonly outcome: Outcome | null;
  /** Re-scored after a price correction: how many times. */
  readonly corrections: number;
}

export interface PublicTrackRecord {
  readonly horizon: Horizon;
  readonly scoreboard: Scoreboard;
  readonly allHorizons: Scoreboard;
  readonly chart: readonly PredictedVsActualPoint[];
  /** Newest first. */
  readonly calls: readonly PublicCall[];
}

const pct2 = (value: number, base: number): number => roundTo(pctFromBase(value, base), FIGURE_DECIMALS);

/**
 * The public track record of one series: built from matured forecasts only (what has not
 * matured never enters it), and with no price level in it.
 */
export function publicTrackRecord(forecasts: readonly Forecast[], scores: ReadonlyMap<string, Score>, today: IsoDate, horizon: Horizon): PublicTrackRecord {
  const matured = forecasts.filter((f) => isMatured(f, today));
  const calls = deskCallRows(matured, scores, today, horizon).map((row): PublicCall => {
    const f = row.forecast;
    return {
      id: f.id,
      horizon: f.horizon,
      publishedAt: f.publishedAt,
      baseDate: f.baseDate,
      endDate: f.endDate,
      direction: f.direction,
      flatBandPct: f.flatBandPct,
      lowPct: pct2(f.low, f.baseValue),
      highPct: pct2(f.high, f.baseValue),
      supersedes: f.supersedes,
      supersededBy: row.supersededBy,
      status: row.status === 'open' ? 'awaiting' : row.status,
      actualPct: row.score?.actual ? pct2(row.score.actual.value, f.baseValue) : null,
      outcome: row.score?.outcome ?? null,
      corrections: row.score ? row.score.revision - 1 : 0,
    };
  });
  return {
    horizon,
    scoreboard: scoreboardOf(matured, scores, today, horizon),
    allHorizons: scoreboardOf(matured, scores, today),
    chart: predictedVsActual(matured, scores, today, horizon).map(asChangeFromBase),
    calls,
  };
}

// ---- the list of calls ---------------------------------------------------------------------

/** One line of a list of calls, in prices (a subscriber's page) or in changes from the base (public). */
export interface CallItem {
  readonly id: string;
  readonly endDate: IsoDate;
  readonly baseDate: IsoDate;
  readonly direction: Direction;
  /** The range: "1,150–1,190", or "+1.0% to +3.5%". */
  readonly called: string;
  readonly status: CallStatus;
  /** The price that counted ("1,172" or "+2.8%"), null while there is none. */
  readonly actual: string | null;
  readonly actualDirection: Direction | null;
  readonly insideRange: boolean | null;
  readonly directionRight: boolean | null;
  /** "1.2%": the absolute error of the range's mid. */
  readonly error: string | null;
  /** Corrections and re-scores, in words. */
  readonly notes: readonly string[];
}

const correctionNotes = (supersedes: string | null, supersededBy: string | null): string[] => [
  ...(supersedes ? ['A correction of an earlier call (both count).'] : []),
  ...(supersededBy ? ['Corrected by a later call (both count).'] : []),
];

/** A subscriber's list: prices as they are. */
export function callItemsInPrices(rows: readonly CallRow[]): CallItem[] {
  return rows.map(({ forecast: f, status, score, supersededBy }) => {
    const earlier = score?.earlier.at(-1);
    return {
      id: f.id,
      endDate: f.endDate,
      baseDate: f.baseDate,
      direction: f.direction,
      called: rangeText(f),
      status,
      actual: score?.actual ? formatNumber(score.actual.value) : null,
      actualDirection: score?.outcome?.actualDirection ?? null,
      insideRange: score?.outcome?.insideRange ?? null,
      directionRight: score?.outcome?.directionRight ?? null,
      error: score?.outcome ? plainPct(score.outcome.absPctError) : null,
      notes: [
        ...correctionNotes(f.supersedes, supersededBy),
        ...(score && score.revision > 1
          ? [`Re-scored after a price correction${earlier?.actual ? ` (it was scored against ${formatNumber(earlier.actual.value)} on ${toDisplayDate(earlier.actual.date)})` : ''}.`]
          : []),
      ],
    };
  });
}

/** The public list: changes from each call's base, no price level. */
export function callItemsInChanges(calls: readonly PublicCall[]): CallItem[] {
  return calls.map((c) => ({
    id: c.id,
    endDate: c.endDate,
    baseDate: c.baseDate,
    direction: c.direction,
    called: changeRangeText(c.lowPct, c.highPct),
    status: c.status,
    actual: c.actualPct === null ? null : signedPct(c.actualPct),
    actualDirection: c.outcome?.actualDirection ?? null,
    insideRange: c.outcome?.insideRange ?? null,
    directionRight: c.outcome?.directionRight ?? null,
    error: c.outcome ? plainPct(c.outcome.absPctError) : null,
    notes: [...correctionNotes(c.supersedes, c.supersededBy), ...(c.corrections > 0 ? ['Re-scored after a price correction.'] : [])],
  }));
}

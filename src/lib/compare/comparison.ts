/**
 * A comparison (pure): up to six series over one range, in one unit, as prices or indexed to
 * 100, optionally smoothed, each with its figures. The /compare page, `GET /api/series` and
 * every export are this one computation, so what is exported is what is shown.
 */
import { addDays, type IsoDate } from '../dates.ts';
import { CONVERTED_DECIMALS, decimalsOf } from '../numbers.ts';
import type { PricePoint } from '../priceTypes.ts';
import { seriesBasis, type SeriesDef } from '../seriesCatalog.ts';
import type { ResolvedRange } from './ranges.ts';
import { indexTo100, lineStats, movingAverage, within, type CompareView, type LineStats, type MovingAverage } from './transforms.ts';
import { compareUnitLabels, conversionFor, convertPoints, FX_LOOKBACK_DAYS, type CompareUnit, type Conversion } from './units.ts';

/** At most this many series on one chart. */
export const MAX_COMPARE_SERIES = 6;

export interface ComparisonOptions {
  readonly range: ResolvedRange;
  readonly unit: CompareUnit;
  readonly view: CompareView;
  readonly ma: MovingAverage;
}

export interface ComparedLine {
  readonly id: string;
  readonly label: string;
  /** The series' own unit. */
  readonly nativeUnit: string;
  /** The unit of `points` (before indexing). */
  readonly unit: string;
  readonly conversion: Conversion;
  /**
   * Why the series is shown as quoted although another unit was chosen (no exchange rate for
   * its currency, or it is the exchange rate itself); null when it is in the chosen unit.
   */
  readonly notConverted: { readonly message: string; readonly reason: string } | null;
  readonly points: readonly PricePoint[];
  readonly stats: LineStats | null;
}

export interface Comparison extends ComparisonOptions {
  readonly lines: readonly ComparedLine[];
  /** What the values are in, for the axis and the exports' headers. */
  readonly valueLabel: string;
}

export type ComparisonResult =
  | { readonly ok: true; readonly comparison: Comparison }
  | { readonly ok: false; readonly seriesId: string; readonly message: string };

/**
 * Where the point read of a series starts so that the first date of the range already has a
 * full moving-average window and an exchange rate: `window` points back (weeks for a weekly
 * series), twice over for holidays and gaps.
 */
export function readStart(series: SeriesDef, options: ComparisonOptions): IsoDate {
  const step = series.frequency === 'weekly' ? 7 : 1;
  const days = options.ma > 1 ? options.ma * step * 2 + FX_LOOKBACK_DAYS : 0;
  return addDays(options.range.from, -days);
}

/** Where the exchange-rate read starts (the earliest series read, less the look-back). */
export const fxReadStart = (series: readonly SeriesDef[], options: ComparisonOptions): IsoDate =>
  addDays(series.map((s) => readStart(s, options)).reduce((a, b) => (a < b ? a : b), options.range.from), -FX_LOOKBACK_DAYS);

/** The series the chosen unit cannot take, each with why (they are shown as quoted). */
export function unconvertible(series: readonly SeriesDef[], unit: CompareUnit): { seriesId: string; message: string }[] {
  return series.flatMap((s) => {
    const result = conversionFor(s, unit);
    return result.ok ? [] : [{ seriesId: s.id, message: result.message }];
  });
}

/**
 * Builds the comparison from each series' points (read from `readStart`) and the exchange
 * rate (from `fxReadStart`), all ascending. Order: convert, smooth, cut to the range, index.
 * A series the chosen unit cannot take (VA in RMB, the exchange rate itself) is kept as quoted,
 * and says why: the others still convert (the page draws it on its own axis).
 */
export function buildComparison(
  series: readonly SeriesDef[],
  points: ReadonlyMap<string, readonly PricePoint[]>,
  fx: readonly PricePoint[],
  options: ComparisonOptions,
): ComparisonResult {
  const lines: ComparedLine[] = [];
  for (const s of series) {
    const converted = conversionFor(s, options.unit);
    const asQuoted = conversionFor(s, 'native');
    if (!asQuoted.ok) return { ok: false, seriesId: s.id, message: asQuoted.message };
    const conversion = converted.ok ? converted.conversion : { ...asQuoted.conversion, formula: `as quoted: ${converted.message}` };
    const inUnit = convertPoints(points.get(s.id) ?? [], conversion, fx);
    const smoothed = within(movingAverage(inUnit, options.ma), options.range.from, options.range.to);
    const shown = options.view === 'indexed' ? indexTo100(smoothed) : smoothed;
    const notConverted = converted.ok ? null : { message: converted.message, reason: converted.reason };
    lines.push({ id: s.id, label: s.label, nativeUnit: s.unit, unit: conversion.unit, conversion, notConverted, points: shown, stats: lineStats(shown) });
  }
  return { ok: true, comparison: { ...options, lines, valueLabel: valueLabel(lines, options) } };
}

/** The units of the lines, each once, in order. */
export const unitsOf = (lines: readonly Pick<ComparedLine, 'unit'>[]): string[] => {
  const seen = new Map<string, string>();
  for (const line of lines) if (!seen.has(unitKey(line.unit))) seen.set(unitKey(line.unit), line.unit);
  return [...seen.values()];
};
/** Units compare without their spelling's case (a unit read from old data may differ in case). */
export const unitKey = (unit: string): string => unit.toLowerCase();

/** A list in words: "a", "a and b", "a, b and c". */
const inWords = (items: readonly string[]): string => (items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`);

/**
 * What the values are in, for the axis, the API and the exports' headers: the chosen unit, or
 * the one unit they share; with several, the units in order ("US$/t, ₹/kg and ₹/US$", each
 * on its own axis).
 */
function valueLabel(lines: readonly ComparedLine[], options: ComparisonOptions): string {
  const smoothing = options.ma > 1 ? `, ${options.ma}-point moving average` : '';
  if (options.view === 'indexed') return `Index, first point = 100${smoothing}`;
  const units = unitsOf(options.unit === 'native' ? lines : [{ unit: compareUnitLabels[options.unit] }, ...lines.filter((l) => l.notConverted)]);
  return `${inWords(units)}${smoothing}`;
}

/**
 * The sentence under the comparison's heading: what the values are in, and which series keep
 * their own unit and axis, e.g. "Values in ₹/kg. Vinyl acetate · China (RMB/t) cannot be
 * converted: it keeps its own axis below." (The page's notes say why.)
 */
export function comparisonCaption(comparison: Comparison): string {
  const { lines, view, unit, ma } = comparison;
  const smoothing = ma > 1 ? `, ${ma}-point moving average` : '';
  if (view === 'indexed') return `Index, first point = 100${smoothing}: each series against its own first value.`;
  const units = unitsOf(lines);
  if (unit === 'native') {
    return units.length === 1 ? `Values in ${units[0]!}, as quoted${smoothing}.` : `Each series as quoted${smoothing}, one axis per unit: ${inWords(units)}.`;
  }
  const kept = lines.filter((l) => l.notConverted).map((l) => `${l.label} (${l.unit})`);
  const converted = lines.some((l) => l.conversion.fx !== 'none') ? ' Converted per date with the ₹/US$ reference rate (fx.usdinr); taxes, duties and freight stay as each series is quoted.' : '';
  if (kept.length === 0) return `Values in ${compareUnitLabels[unit]}${smoothing}.${converted}`;
  if (kept.length === lines.length) return `As quoted${smoothing}: ${inWords(kept)} cannot be shown in ${compareUnitLabels[unit]}.`;
  const keeps = kept.length === 1 ? 'it keeps its own axis' : 'each keeps its own axis';
  return `Values in ${compareUnitLabels[unit]}${smoothing}. ${inWords(kept)} cannot be converted: ${keeps} below.${converted}`;
}

/** A line's name with its unit when the units differ (the legend of a native-unit chart). */
export const lineName = (line: ComparedLine, comparison: Pick<Comparison, 'lines' | 'view'>): string => {
  const mixed = unitsOf(comparison.lines).length > 1;
  return mixed && comparison.view !== 'indexed' ? `${line.label} (${line.unit})` : line.label;
};

/** True when a line shows the series' own prices: not converted, smoothed or indexed. */
export const showsOwnPrices = (line: ComparedLine, comparison: Pick<Comparison, 'view' | 'ma'>): boolean =>
  line.conversion.fx === 'none' && line.conversion.multiplier === 1 && line.conversion.divisor === 1 && comparison.view === 'prices' && comparison.ma <= 1;

/**
 * The decimals a line's numbers are written in (API, files, page): a series' own prices as its
 * basis quotes them; anything computed from them (converted, smoothed, indexed) four.
 */
export const lineDecimals = (line: ComparedLine, comparison: Pick<Comparison, 'view' | 'ma'>): number =>
  showsOwnPrices(line, comparison) ? decimalsOf(seriesBasis(line.id)) : CONVERTED_DECIMALS;

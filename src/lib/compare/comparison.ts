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

/** Checks every series can be shown in the unit, before anything is read. */
export function checkUnit(series: readonly SeriesDef[], unit: CompareUnit): { ok: true } | { ok: false; seriesId: string; message: string } {
  for (const s of series) {
    const result = conversionFor(s, unit);
    if (!result.ok) return { ok: false, seriesId: s.id, message: result.message };
  }
  return { ok: true };
}

/**
 * Builds the comparison from each series' points (read from `readStart`) and the exchange
 * rate (from `fxReadStart`), all ascending. Order: convert, smooth, cut to the range, index.
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
    if (!converted.ok) return { ok: false, seriesId: s.id, message: converted.message };
    const { conversion } = converted;
    const inUnit = convertPoints(points.get(s.id) ?? [], conversion, fx);
    const smoothed = within(movingAverage(inUnit, options.ma), options.range.from, options.range.to);
    const shown = options.view === 'indexed' ? indexTo100(smoothed) : smoothed;
    lines.push({ id: s.id, label: s.label, nativeUnit: s.unit, unit: conversion.unit, conversion, points: shown, stats: lineStats(shown) });
  }
  return { ok: true, comparison: { ...options, lines, valueLabel: valueLabel(lines, options) } };
}

function valueLabel(lines: readonly ComparedLine[], options: ComparisonOptions): string {
  const smoothing = options.ma > 1 ? `, ${options.ma}-point moving average` : '';
  if (options.view === 'indexed') return `Index, first point = 100${smoothing}`;
  if (options.unit !== 'native') return `${compareUnitLabels[options.unit]}${smoothing}`;
  const units = [...new Set(lines.map((l) => l.unit))];
  return `${units.length === 1 ? units[0]! : 'Each series in its own unit'}${smoothing}`;
}

/** A line's name with its unit when the units differ (the legend of a native-unit chart). */
export const lineName = (line: ComparedLine, comparison: Pick<Comparison, 'lines' | 'view'>): string => {
  const mixed = new Set(comparison.lines.map((l) => l.unit)).size > 1;
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

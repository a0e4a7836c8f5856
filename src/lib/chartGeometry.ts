/**
 * Where things are on a price chart, in one place for the server-rendered SVG (@nivo/line,
 * src/islands/PriceChart.tsx) and the light pointer layer that hydrates over it
 * (src/islands/ChartOverlay.tsx), so the tooltip finds the point under the pointer without
 * loading the charting library in the browser.
 */

import { formatNumber } from './numbers.ts';

/** A price as the chart's axis and tooltip show it (Indian digit grouping, at most 2 decimals: src/lib/numbers.ts). */
export const formatChartValue = (value: number): string => formatNumber(value);

/** The width the server draws a chart at: a phone's or a desktop's (the SVG then scales to its box). */
export const WIDE_CHART_PX = 760;
export const NARROW_CHART_PX = 360;
/** Below this width the chart uses its narrow layout (fewer ticks, legend in a column). */
export const NARROW_BELOW_PX = 520;

/** Phones get the narrow drawing: Chromium's UA client hint, or a mobile user agent. */
export function serverChartWidth(headers: { get(name: string): string | null }): number {
  if (headers.get('sec-ch-ua-mobile') === '?1') return NARROW_CHART_PX;
  return /Mobi|Android|iPhone|iPad/i.test(headers.get('user-agent') ?? '') ? NARROW_CHART_PX : WIDE_CHART_PX;
}

export interface ChartLayout {
  readonly width: number;
  /** The SVG's height: the plot's height, plus the legend's rows on a narrow chart. */
  readonly outerHeight: number;
  readonly narrow: boolean;
  readonly legendHeight: number;
  readonly margin: { readonly top: number; readonly right: number; readonly bottom: number; readonly left: number };
}

export function chartLayout(width: number, height: number, lineCount: number): ChartLayout {
  const narrow = width < NARROW_BELOW_PX;
  // Several lines get a legend: one row when wide, one line per series when narrow.
  const legendHeight = lineCount > 1 ? (narrow ? lineCount * 18 + 8 : 32) : 0;
  return {
    width,
    outerHeight: height + (narrow ? legendHeight : 0),
    narrow,
    legendHeight,
    margin: { top: 16, right: 20, bottom: legendHeight + 40, left: 64 },
  };
}

const dayMs = (iso: string): number => Date.parse(`${iso}T00:00:00Z`);

/**
 * The date under a horizontal position of the plot (0 = its left edge, 1 = its right edge):
 * nivo's time scale spans the first to the last date of all lines. Returns the nearest date
 * that has a point, or null for an empty chart.
 */
export function nearestDate(dates: readonly string[], fraction: number): string | null {
  if (dates.length === 0) return null;
  const first = dayMs(dates[0]!);
  const last = dayMs(dates.at(-1)!);
  const target = first + Math.min(1, Math.max(0, fraction)) * (last - first);
  let lo = 0;
  let hi = dates.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (dayMs(dates[mid]!) < target) lo = mid + 1;
    else hi = mid;
  }
  const after = dates[lo]!;
  const before = dates[Math.max(0, lo - 1)]!;
  return Math.abs(dayMs(before) - target) <= Math.abs(dayMs(after) - target) ? before : after;
}

/** The horizontal position (0–1) of a date on the plot. */
export function positionOf(dates: readonly string[], date: string): number {
  if (dates.length < 2) return 0.5;
  const first = dayMs(dates[0]!);
  const last = dayMs(dates.at(-1)!);
  return last === first ? 0.5 : (dayMs(date) - first) / (last - first);
}

/** Every date of the lines, ascending, once. */
export function allDates(lines: readonly { readonly data: readonly { readonly x: string }[] }[]): string[] {
  return [...new Set(lines.flatMap((line) => line.data.map((d) => d.x)))].sort();
}

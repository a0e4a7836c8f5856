/**
 * Where things are on a price chart, in one place for the server-rendered SVG (@nivo/line,
 * src/islands/PriceChart.tsx), its axes and the light pointer layer that hydrates over it
 * (src/islands/ChartOverlay.tsx), so the tooltip finds the point under the pointer without
 * loading the charting library in the browser.
 *
 * The axes are HTML beside the plot, not SVG text inside it: the plot's SVG stretches to its
 * box (lines keep their width: `vector-effect: non-scaling-stroke`) while the labels stay
 * 13 CSS px at any width, on a 320 px phone as on a desktop. The time axis has a set of
 * ticks per width tier, thinned to fit; CSS picks one by the chart's own width (a container
 * query), so no script and no server guess of the screen is needed.
 */
import { scaleLinear, scaleUtc } from 'd3-scale';
import { monthName } from './dates.ts';

import { formatNumber } from './numbers.ts';

/** A price as the chart's axis and tooltip show it (Indian digit grouping, at most 2 decimals: src/lib/numbers.ts). */
export const formatChartValue = (value: number): string => formatNumber(value);

/**
 * The width the plot's SVG is drawn at before it stretches to its box (the axis labels are
 * HTML beside it, so their size never depends on the box): any width works; this one keeps
 * the path's coordinates in whole-ish numbers at a desktop's size.
 */
export const PLOT_DRAWING_PX = 760;
/** Axis labels' room below the plot (the x labels' row). */
export const X_AXIS_PX = 28;

/** The plot's height for a chart of `height` px (the x axis labels take the rest). */
export const plotHeightOf = (height: number): number => Math.max(120, height - X_AXIS_PX);

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

// ---- axes ------------------------------------------------------------------------------

/** A tick: its value, where it sits (0 = bottom or left of the plot, 1 = top or right) and its label. */
export interface AxisTick {
  readonly value: number;
  readonly position: number;
  readonly label: string;
}

export interface ValueAxis {
  /** The plot's value range: the data's, widened to round ticks. */
  readonly min: number;
  readonly max: number;
  readonly ticks: readonly AxisTick[];
  /** The longest label's length in characters (the axis's width, in `ch`). */
  readonly labelChars: number;
}

/** The time axis: one set of ticks per width tier of TIME_TICK_TIERS, narrowest first. */
export type TimeAxis = readonly (readonly AxisTick[])[];

/** Value ticks: 5 or so fit any plot of 120 px or more at 13 px labels. */
export const VALUE_TICKS = 5;
/**
 * Time ticks by the chart's width: a label such as "Nov 26" is about 42 px at 13 px and wants a
 * gap, so about 60 px a label. Under 640 px (phones: the plot is 190–560 px) at most 4; to
 * 960 px at most 8; wider at most 12 (a year by months). Chart.astro's container queries use
 * the same widths (a unit test compares them).
 */
export const TIME_TICK_TIERS: readonly { readonly belowPx: number; readonly max: number }[] = [
  { belowPx: 640, max: 4 },
  { belowPx: 960, max: 8 },
  { belowPx: Infinity, max: 12 },
];

/** The value axis of some lines: round ticks covering every value (a flat line gets a band around it). */
export function valueAxis(values: readonly number[], count = VALUE_TICKS): ValueAxis {
  const finite = values.filter(Number.isFinite);
  let low = finite.length > 0 ? Math.min(...finite) : 0;
  let high = finite.length > 0 ? Math.max(...finite) : 1;
  if (low === high) {
    const pad = Math.abs(low) * 0.01 || 1;
    low -= pad;
    high += pad;
  }
  const scale = scaleLinear().domain([low, high]).nice(count);
  const [min, max] = scale.domain() as [number, number];
  const ticks = scale.ticks(count).map((value) => ({ value, position: (value - min) / (max - min), label: formatChartValue(value) }));
  return { min, max, ticks, labelChars: Math.max(...ticks.map((t) => t.label.length)) };
}

const utcDay = (iso: string): Date => new Date(`${iso}T00:00:00Z`);
const isFirstOfYear = (d: Date): boolean => d.getUTCMonth() === 0 && d.getUTCDate() === 1;

/** Labels for a set of ticks: years ("2024"), months ("Nov 26") or days ("12 Nov"), whichever they fall on. */
function timeLabels(ticks: readonly Date[]): string[] {
  if (ticks.length > 0 && ticks.every(isFirstOfYear)) return ticks.map((d) => String(d.getUTCFullYear()));
  if (ticks.every((d) => d.getUTCDate() === 1)) return ticks.map((d) => `${monthName(d.getUTCMonth() + 1)} ${String(d.getUTCFullYear() % 100).padStart(2, '0')}`);
  return ticks.map((d) => `${d.getUTCDate()} ${monthName(d.getUTCMonth() + 1)}`);
}

/** The roundest ticks between two dates (calendar days, UTC) that number at most `max`. */
function timeTicks(first: Date, last: Date, max: number): AxisTick[] {
  const span = last.getTime() - first.getTime();
  if (span <= 0) return [{ value: first.getTime(), position: 0.5, label: timeLabels([first])[0]! }];
  const scale = scaleUtc().domain([first, last]);
  let ticks: Date[] = [];
  // d3 gives about as many as asked; ask for fewer until they fit.
  for (let asked = max; asked >= 1; asked--) {
    ticks = scale.ticks(asked);
    if (ticks.length <= max) break;
  }
  if (ticks.length > max) ticks = ticks.slice(0, max);
  const labels = timeLabels(ticks);
  return ticks.map((d, i) => ({ value: d.getTime(), position: (d.getTime() - first.getTime()) / span, label: labels[i]! }));
}

/** The time axis from the first to the last date of the lines (the plot's x range), per width tier. */
export function timeAxis(dates: readonly string[]): TimeAxis {
  if (dates.length === 0) return TIME_TICK_TIERS.map(() => []);
  const first = utcDay(dates[0]!);
  const last = utcDay(dates.at(-1)!);
  return TIME_TICK_TIERS.map((tier) => timeTicks(first, last, tier.max));
}

/** Both axes of a chart's lines. */
export function chartAxes(lines: readonly { readonly data: readonly { readonly x: string; readonly y: number }[] }[]): { value: ValueAxis; time: TimeAxis } {
  return { value: valueAxis(lines.flatMap((line) => line.data.map((d) => d.y))), time: timeAxis(allDates(lines)) };
}

// ---- lines as compact text -------------------------------------------------------------

const DAY_MS = 86_400_000;

/**
 * Lines as compact text for an island's props: `[[name, [day numbers…], [values…]], …]` (days
 * since 1970-01-01). Astro escapes every quote of a prop into the page, so dates as numbers
 * keep the page small; decodeLines reads it back.
 */
export const encodeLines = (lines: readonly { readonly id: string; readonly data: readonly { readonly x: string; readonly y: number }[] }[]): string =>
  JSON.stringify(lines.map((s) => [s.id, s.data.map((d) => Date.parse(`${d.x}T00:00:00Z`) / DAY_MS), s.data.map((d) => d.y)]));

export function decodeLines(text: string): { id: string; data: { x: string; y: number }[] }[] {
  const lines = JSON.parse(text) as [string, number[], number[]][];
  return lines.map(([id, days, values]) => ({ id, data: days.map((day, i) => ({ x: new Date(day * DAY_MS).toISOString().slice(0, 10), y: values[i]! })) }));
}

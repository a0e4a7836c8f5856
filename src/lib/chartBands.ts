/**
 * Shaded ranges on a price chart (a forecast's range fan, the desk's range against the price
 * that came): each band is a polygon through its points' highs and back through their lows.
 * Pure: the chart island draws them (src/islands/PriceChart.tsx) and this module says where.
 */
import type { IsoDate } from './dates.ts';
import type { ChartLine } from './series.ts';

export interface ChartBand {
  /** Its name, for the legend of the page (the chart draws no legend entry for a band). */
  readonly id: string;
  readonly color: string;
  /** Ascending dates inside the chart's lines' date span (the pointer layer reads only the lines). */
  readonly points: readonly { readonly x: IsoDate; readonly low: number; readonly high: number }[];
}

/** The value span the plot must show so that lines and bands fit, padded by 3 % of it; null when empty. */
export function valueSpan(lines: readonly ChartLine[], bands: readonly ChartBand[]): { readonly min: number; readonly max: number } | null {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  const take = (low: number, high: number) => {
    min = Math.min(min, low);
    max = Math.max(max, high);
  };
  for (const line of lines) for (const d of line.data) take(d.y, d.y);
  for (const band of bands) for (const p of band.points) take(p.low, p.high);
  if (!Number.isFinite(min) || !Number.isFinite(max)) return null;
  const pad = (max - min) * 0.03 || Math.abs(max) * 0.01 || 1;
  return { min: min - pad, max: max + pad };
}

/** The SVG path of a band, given where a date and a value fall on the plot. */
export function bandPath(band: ChartBand, x: (date: IsoDate) => number, y: (value: number) => number): string {
  if (band.points.length === 0) return '';
  const top = band.points.map((p) => `${x(p.x).toFixed(1)},${y(p.high).toFixed(1)}`);
  const bottom = [...band.points].reverse().map((p) => `${x(p.x).toFixed(1)},${y(p.low).toFixed(1)}`);
  return `M${top.join('L')}L${bottom.join('L')}Z`;
}

/**
 * The band of a range-quoted price (src/lib/quotes.ts): its lows and highs around the mid line.
 * A date quoted as one number in such a series pinches the band to its value; null when no
 * point is a range (a single-value series is a line only).
 */
export function rangeBand(
  id: string,
  color: string,
  points: readonly { readonly date: IsoDate; readonly value: number; readonly low?: number | undefined; readonly high?: number | undefined }[],
): ChartBand | null {
  if (!points.some((p) => p.low !== undefined && p.high !== undefined)) return null;
  return { id, color, points: points.map((p) => ({ x: p.date, low: p.low ?? p.value, high: p.high ?? p.value })) };
}

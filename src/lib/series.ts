/**
 * Series shaping, pure: sorting and realigning parallel lists, period averages, the legacy
 * `{key, value}` form with `dd/mm/yyyy` dates, date ranges for a year or the last twelve
 * months, and the figures a screen shows (latest, change, low, high).
 */
import { addDays, parseIsoDate, parseSlashedDate, toSlashedDate, type IsoDate } from './dates.ts';
import { roundTo } from './numbers.ts';
import type { PricePoint } from './priceTypes.ts';

export type PeriodType = 'Daily' | 'Weekly' | 'Monthly' | 'Yearly';
export const periodTypes: readonly PeriodType[] = ['Daily', 'Weekly', 'Monthly', 'Yearly'];

/** The legacy chart shape: parallel lists, dates as `dd/mm/yyyy`, ascending. */
export interface KeyValue {
  readonly key: string[];
  readonly value: number[];
}

/** The historical shape: parallel `date` and `value` lists. */
export interface DateValue {
  readonly date: string[];
  readonly value: number[];
}

const toIso = (date: string): IsoDate | null => parseIsoDate(date) ?? parseSlashedDate(date);

/**
 * Sorts parallel lists by date and carries each value with its date ("values realigned to the
 * sorted dates"). Accepts ISO or `dd/mm/yyyy` dates; pairs with an unreadable date or a
 * non-finite value are dropped; a date given twice keeps its last value.
 */
export function sortAndRealign(dates: readonly string[], values: readonly number[]): PricePoint[] {
  const byDate = new Map<IsoDate, number>();
  const n = Math.min(dates.length, values.length);
  for (let i = 0; i < n; i++) {
    const date = toIso(dates[i]!);
    const value = values[i]!;
    if (date !== null && Number.isFinite(value)) byDate.set(date, value);
  }
  return [...byDate].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([date, value]) => ({ date, value }));
}

/** Points → legacy `{key:[dd/mm/yyyy…], value:[…]}`, values rounded to `decimals` (the edge: src/lib/numbers.ts). */
export const toKeyValue = (points: readonly PricePoint[], decimals: number): KeyValue => ({
  key: points.map((p) => toSlashedDate(p.date)),
  value: points.map((p) => roundTo(p.value, decimals)),
});

/** Points → historical `{date:[dd/mm/yyyy…], value:[…]}`, values rounded to `decimals`. */
export const toDateValue = (points: readonly PricePoint[], decimals: number): DateValue => ({
  date: points.map((p) => toSlashedDate(p.date)),
  value: points.map((p) => roundTo(p.value, decimals)),
});

const weekdayOf = (date: IsoDate): number => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
};

/** The Monday that starts the (ISO, Monday-to-Sunday) week of `date`. */
export const weekStart = (date: IsoDate): IsoDate => addDays(date, -((weekdayOf(date) + 6) % 7));

/** The first day of the period `date` falls in: itself, its week's Monday, the 1st, 1 January. */
export function periodStart(date: IsoDate, type: PeriodType): IsoDate {
  switch (type) {
    case 'Daily':
      return date;
    case 'Weekly':
      return weekStart(date);
    case 'Monthly':
      return `${date.slice(0, 7)}-01`;
    case 'Yearly':
      return `${date.slice(0, 4)}-01-01`;
  }
}

export const round2 = (value: number): number => roundTo(value, 2);

/**
 * Averages per period, each labelled with the period's first day and rounded to 2 decimals.
 * Input must be ascending (as the store returns it); output is ascending. Daily returns the
 * points unchanged.
 */
export function averageByPeriod(points: readonly PricePoint[], type: PeriodType): PricePoint[] {
  if (type === 'Daily') return [...points];
  const out: PricePoint[] = [];
  let current: IsoDate | null = null;
  let sum = 0;
  let count = 0;
  for (const p of points) {
    const start = periodStart(p.date, type);
    if (start !== current) {
      if (current !== null) out.push({ date: current, value: round2(sum / count) });
      current = start;
      sum = 0;
      count = 0;
    }
    sum += p.value;
    count++;
  }
  if (current !== null) out.push({ date: current, value: round2(sum / count) });
  return out;
}

export interface DateRange {
  readonly from: IsoDate;
  readonly to: IsoDate;
}

export const yearRange = (year: number): DateRange => ({ from: `${year}-01-01`, to: `${year}-12-31` });

/** The twelve months up to and including `today`: from the day after the same date last year. */
export function lastTwelveMonths(today: IsoDate): DateRange {
  const y = Number(today.slice(0, 4)) - 1;
  const sameDayLastYear = parseIsoDate(`${y}${today.slice(4)}`) ?? `${y}-02-28`;
  return { from: addDays(sameDayLastYear, 1), to: today };
}

export interface SeriesSummary {
  readonly latest: PricePoint;
  readonly previous: PricePoint | null;
  /** latest − previous, rounded to 4 decimals (any unit's); null without a previous point. */
  readonly change: number | null;
  /** Change as a percentage of the previous value, 2 decimals. */
  readonly changePct: number | null;
  readonly low: PricePoint;
  readonly high: PricePoint;
}

/** Latest, change against the point before it, and the range's low and high (first occurrence). */
export function summarize(points: readonly PricePoint[]): SeriesSummary | null {
  const latest = points.at(-1);
  if (!latest) return null;
  const previous = points.at(-2) ?? null;
  let low = latest;
  let high = latest;
  for (const p of points) {
    if (p.value < low.value) low = p;
    if (p.value > high.value) high = p;
  }
  const change = previous ? roundTo(latest.value - previous.value, 4) : null;
  const changePct = previous && previous.value !== 0 ? round2(((latest.value - previous.value) / previous.value) * 100) : null;
  return { latest, previous, change, changePct, low, high };
}

/** The chart island's input: one line per series, x as ISO dates. */
export interface ChartLine {
  readonly id: string;
  readonly data: readonly { readonly x: IsoDate; readonly y: number }[];
}

export const toChartLine = (id: string, points: readonly PricePoint[]): ChartLine => ({
  id,
  data: points.map((p) => ({ x: p.date, y: p.value })),
});

/** Picks at most `max` evenly spaced points (always keeping the last): keeps SSR'd SVGs small. */
export function thin(points: readonly PricePoint[], max: number): PricePoint[] {
  if (points.length <= max || max < 2) return [...points];
  const step = (points.length - 1) / (max - 1);
  const out: PricePoint[] = [];
  for (let i = 0; i < max; i++) out.push(points[Math.round(i * step)]!);
  return out;
}

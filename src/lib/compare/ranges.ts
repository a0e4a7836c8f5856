/** The range picker of /compare (pure): presets counted back from today, or custom dates. */
import { parseIsoDate, type IsoDate } from '../dates.ts';

export const rangePresets = ['1M', '3M', '6M', '1Y', '5Y', 'all', 'custom'] as const;
export type RangePreset = (typeof rangePresets)[number];
export const isRangePreset = (value: string): value is RangePreset => (rangePresets as readonly string[]).includes(value);

export const rangeLabels: Readonly<Record<RangePreset, string>> = {
  '1M': '1 month',
  '3M': '3 months',
  '6M': '6 months',
  '1Y': '1 year',
  '5Y': '5 years',
  all: 'All',
  custom: 'Custom dates',
};

const MONTHS: Readonly<Record<Exclude<RangePreset, 'all' | 'custom'>, number>> = { '1M': 1, '3M': 3, '6M': 6, '1Y': 12, '5Y': 60 };

/** The same day `months` calendar months earlier, clamped to the month's last day (31 Mar − 1 → 28/29 Feb). */
export function monthsBefore(date: IsoDate, months: number): IsoDate {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) - months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

export interface ResolvedRange {
  readonly from: IsoDate;
  readonly to: IsoDate;
}

/** The earliest date "all" can mean: before any series the catalog keeps. */
export const EARLIEST_DATE: IsoDate = '1990-01-01';

/**
 * The dates a preset covers, up to and including `today`: 1M = from the same day last month,
 * 1Y = from the same day last year, and so on; `all` = from `earliest` (the first point of the
 * series shown). A custom range is given by its own dates (see `customRange`).
 */
export function presetRange(preset: Exclude<RangePreset, 'custom'>, today: IsoDate, earliest: IsoDate = EARLIEST_DATE): ResolvedRange {
  if (preset === 'all') return { from: earliest <= today ? earliest : today, to: today };
  return { from: monthsBefore(today, MONTHS[preset]), to: today };
}

/** A custom range from two ISO dates (from ≤ to, neither after today); null when they do not make one. */
export function customRange(from: string | null | undefined, to: string | null | undefined, today: IsoDate): ResolvedRange | null {
  const start = from ? parseIsoDate(from) : null;
  const end = to ? parseIsoDate(to) : null;
  if (!start || !end || start > end || start > today) return null;
  return { from: start, to: end > today ? today : end };
}

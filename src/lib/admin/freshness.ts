/**
 * Data freshness, pure: a series is stale when its latest point is older than its frequency
 * allows. Daily series are assessed on weekdays: stale after 3 business days without a point;
 * weekly series after 10 calendar days. A series without points is stale.
 */
import { addDays, daysBetween, type IsoDate } from '../dates.ts';
import type { Frequency, SeriesDef } from '../seriesCatalog.ts';

export const STALE_RULES: Readonly<Record<Frequency, { readonly days: number; readonly business: boolean; readonly text: string }>> = {
  daily: { days: 3, business: true, text: 'more than 3 business days old' },
  weekly: { days: 10, business: false, text: 'more than 10 days old' },
};

const isWeekday = (date: IsoDate): boolean => {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day !== 0 && day !== 6;
};

/** Weekdays after `from` up to and including `to` (0 when `to` is not after `from`). */
export function businessDaysBetween(from: IsoDate, to: IsoDate): number {
  const span = daysBetween(from, to);
  if (span <= 0) return 0;
  const whole = Math.floor(span / 7);
  let count = whole * 5;
  for (let d = addDays(from, whole * 7 + 1); d <= to; d = addDays(d, 1)) if (isWeekday(d)) count++;
  return count;
}

export interface Freshness {
  readonly series: SeriesDef;
  readonly last: IsoDate | null;
  /** Days (business days for daily series) since the latest point; null without points. */
  readonly age: number | null;
  readonly stale: boolean;
}

export function freshnessOf(series: SeriesDef, last: IsoDate | null, today: IsoDate): Freshness {
  if (last === null) return { series, last, age: null, stale: true };
  const rule = STALE_RULES[series.frequency];
  const age = rule.business ? businessDaysBetween(last, today) : Math.max(0, daysBetween(last, today));
  return { series, last, age, stale: age > rule.days };
}

/** Every series' freshness, stale first, then oldest first, then by id. */
export function freshnessReport(series: readonly SeriesDef[], lastDates: ReadonlyMap<string, IsoDate>, today: IsoDate): Freshness[] {
  return series
    .map((s) => freshnessOf(s, lastDates.get(s.id) ?? null, today))
    .sort((a, b) => Number(b.stale) - Number(a.stale) || (a.last ?? '').localeCompare(b.last ?? '') || a.series.id.localeCompare(b.series.id));
}

/**
 * How far back a plan's screens and data API reach (the plan table's `historyYears`): N years
 * opens 1 January of (current year − N) onwards, in India's calendar. Pure: the access policy
 * refuses API queries that ask for older prices (403 `history_limit`, naming the query
 * parameter), the screens' year selectors and the comparison's ranges start at the same year,
 * and the whole-series CSV export is cut at the same date.
 */
import { yearOf, type IsoDate } from '../dates.ts';
import { andList, plans } from '../plans.ts';

export interface HistoryReach {
  /** Years before the current one; null: every year the archive has. */
  readonly years: number | null;
  /** The oldest calendar year opened; null: no limit. */
  readonly oldestYear: number | null;
  /** 1 January of the oldest year; null: no limit. */
  readonly earliest: IsoDate | null;
}

export const WHOLE_ARCHIVE: HistoryReach = { years: null, oldestYear: null, earliest: null };

export function reachOf(years: number | null, today: IsoDate): HistoryReach {
  if (years === null) return WHOLE_ARCHIVE;
  const oldestYear = yearOf(today) - years;
  return { years, oldestYear, earliest: `${String(oldestYear).padStart(4, '0')}-01-01` };
}

export const yearWithin = (reach: HistoryReach, year: number): boolean => reach.oldestYear === null || year >= reach.oldestYear;
export const dateWithin = (reach: HistoryReach, date: IsoDate): boolean => reach.earliest === null || date >= reach.earliest;

/** The later of a series' first year and the reach's oldest year (the year selector's last option). */
export function firstSelectableYear(reach: HistoryReach, seriesStartYear: number | undefined): number | undefined {
  if (reach.oldestYear === null) return seriesStartYear;
  return seriesStartYear === undefined ? reach.oldestYear : Math.max(seriesStartYear, reach.oldestYear);
}

/** The later of a range's start and the reach's earliest date. */
export const clampFrom = (reach: HistoryReach, from: IsoDate): IsoDate => (reach.earliest !== null && from < reach.earliest ? reach.earliest : from);

/** Plans whose screens reach `year` in `currentYear`, cheapest first ("Platinum"). */
export const plansReachingYear = (year: number, currentYear: number): string[] =>
  plans.filter((p) => p.historyYears > 0 && currentYear - p.historyYears <= year).map((p) => p.name);

/** "Your plan opens prices from 2021. Older years come with Platinum." */
export function historyLimitMessage(reach: HistoryReach, currentYear: number): string {
  if (reach.oldestYear === null) return '';
  const better = plansReachingYear(reach.oldestYear - 1, currentYear);
  return `Your plan opens prices from ${reach.oldestYear}.${better.length > 0 ? ` Older years come with ${andList(better)}.` : ''}`;
}

/** Which query parameter of which data endpoint names a year (`2021`) or a date (`2021-04-01`). */
const DATED_QUERIES: readonly [(path: string) => boolean, { readonly param: string; readonly kind: 'year' | 'date' }][] = [
  [(p) => p === '/api/feedstock' || p === '/api/historicaldata' || p === '/api/internationaloffers', { param: 'year', kind: 'year' }],
  [(p) => /^\/api\/citywise\/[^/]+$/.test(p), { param: 'date', kind: 'date' }],
  [(p) => p === '/api/series' || /^\/api\/series\/export\.[a-z]+$/.test(p), { param: 'from', kind: 'date' }],
  // The data feed's series: a plan with the feed may still reach fewer years than the archive.
  [(p) => /^\/api\/v1\/series\/[^/]+$/.test(p), { param: 'from', kind: 'date' }],
];

/**
 * The query parameter that asks for prices older than the reach, or null. A value that is not a
 * year or a date is left to the endpoint's own validation (its 400).
 */
export function historyOverreach(path: string, search: string, reach: HistoryReach): { readonly field: string } | null {
  if (reach.oldestYear === null) return null;
  const rule = DATED_QUERIES.find(([matches]) => matches(path))?.[1];
  if (!rule) return null;
  const value = new URLSearchParams(search).get(rule.param)?.trim();
  if (!value) return null;
  if (rule.kind === 'year') return /^\d{4}$/.test(value) && !yearWithin(reach, Number(value)) ? { field: rule.param } : null;
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && !dateWithin(reach, value) ? { field: rule.param } : null;
}

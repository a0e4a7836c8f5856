/**
 * The city-wise screen's reads: a city's sheet of any past date (picked by month and year, as
 * the original's selectors did, then by date within the month) and one grade compared between
 * two cities over the year. Bad or unknown query values fall back to defaults (pageParams).
 */
import { allGrades, cities, findGrade, type GradeRef, type Product } from '../lib/catalog.ts';
import { cityVsCity, pickSheetDate, toCityEntries, type CityEntry, type CityVsCityRow } from '../lib/citywise.ts';
import { monthOf, yearOf, type IsoDate } from '../lib/dates.ts';
import { dateWithin, WHOLE_ARCHIVE, type HistoryReach } from '../lib/access/history.ts';
import { pickChoice, pickMonth } from '../lib/pageParams.ts';
import type { PriceStore } from './store/prices.ts';

export interface CitywiseHistory {
  readonly city: Product;
  /** Years with sheets for the city, newest first. */
  readonly years: readonly number[];
  readonly year: number;
  readonly month: number;
  /** The city's sheet dates in that month, ascending. */
  readonly dates: readonly IsoDate[];
  readonly date: IsoDate | null;
  readonly entries: readonly CityEntry[];
  readonly compare: {
    readonly grade: GradeRef;
    readonly vs: Product;
    readonly rows: readonly CityVsCityRow[];
  };
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** `reach`: the visitor's plan's history reach (src/lib/access/history.ts); older sheets are not offered. */
export async function readCitywiseHistory(store: PriceStore, query: URLSearchParams, reach: HistoryReach = WHOLE_ARCHIVE): Promise<CitywiseHistory> {
  const city = pickChoice(query.get('city'), cities, (c) => c.slug)!;
  const all = (await store.citySheetDates(city.slug, {})).filter((date) => dateWithin(reach, date));
  const newest = all.at(-1) ?? null;
  const years = [...new Set(all.map(yearOf))].sort((a, b) => b - a);

  const askedYear = Number(query.get('year'));
  const year = years.includes(askedYear) ? askedYear : newest ? yearOf(newest) : Number(new Date().getUTCFullYear());
  const month = pickMonth(query.get('month'), newest && yearOf(newest) === year ? monthOf(newest) : 12);
  const prefix = `${year}-${pad2(month)}`;
  const dates = all.filter((d) => d.startsWith(prefix));
  const date = pickSheetDate(dates, query.get('date'));
  const entries = date ? toCityEntries(await store.citySheetOn(city.slug, date)) : [];

  const grade = findGrade(query.get('grade')?.trim() ?? '') ?? allGrades[0]!;
  const others = cities.filter((c) => c.slug !== city.slug);
  const vs = pickChoice(query.get('vs'), others, (c) => c.slug)!;
  const history = await store.cityGradeHistory(grade.grade.key, [city.slug, vs.slug], { from: `${year}-01-01`, to: `${year}-12-31` });
  return { city, years, year, month, dates, date, entries, compare: { grade, vs, rows: cityVsCity(history, city.slug, vs.slug) } };
}

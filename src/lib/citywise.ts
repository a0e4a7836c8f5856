/** City-wise sheets shaped for the legacy API and the screen (pure). */
import { allGrades, cities, cityBasis, polymers } from './catalog.ts';
import { toSlashedDate } from './dates.ts';
import { priceValue } from './numbers.ts';
import type { CityPriceRow } from './priceTypes.ts';

/** One price line: `display` is what a trader reads, `call` the grade key the API uses. */
export interface CityEntry {
  readonly type: string;
  readonly display: string;
  readonly call: string;
  /** ₹/kg incl. 18% GST, ex-godown (the city's basis), in its decimals; a range's mid. */
  readonly price: number;
  /** A range's low and high (the city's sheet is quoted low–high: src/lib/quotes.ts); absent for a single price. */
  readonly low?: number | undefined;
  readonly high?: number | undefined;
  /** `dd/mm/yyyy` */
  readonly date: string;
}

export interface CityRecord {
  /** Display name, e.g. "Ahmedabad". */
  readonly city: string;
  /** Call value, e.g. "ahmedabad". */
  readonly call: string;
  readonly entries: CityEntry[];
}

const gradeOrder = new Map(allGrades.map((g, i) => [g.grade.key, i]));

export function toCityEntries(rows: readonly CityPriceRow[]): CityEntry[] {
  return rows
    .filter((r) => gradeOrder.has(r.grade))
    .toSorted((a, b) => gradeOrder.get(a.grade)! - gradeOrder.get(b.grade)!)
    .map((r) => {
      const ref = allGrades[gradeOrder.get(r.grade)!]!;
      const city = cities.find((c) => c.slug === r.city);
      const written = (value: number) => (city ? priceValue(value, cityBasis(city)) : value);
      return {
        type: r.polymerType,
        display: `${ref.polymer.slug} ${ref.grade.name}`,
        call: r.grade,
        price: written(r.price),
        ...(r.low !== undefined && r.high !== undefined ? { low: written(r.low), high: written(r.high) } : {}),
        date: toSlashedDate(r.date),
      };
    });
}

/** Every city the catalog names, in catalog order (the first is the default); cities without rows are left out. */
export function toCityRecords(rows: readonly CityPriceRow[]): CityRecord[] {
  return cities
    .map((city) => ({ city: city.name, call: city.slug, entries: toCityEntries(rows.filter((r) => r.city === city.slug)) }))
    .filter((record) => record.entries.length > 0);
}

/** A city's entries grouped by polymer type, in catalog order. */
export function groupByPolymer(entries: readonly CityEntry[]): { type: string; name: string; entries: CityEntry[] }[] {
  return polymers
    .map((p) => ({ type: p.slug, name: p.name, entries: entries.filter((e) => e.type === p.slug) }))
    .filter((group) => group.entries.length > 0);
}

/** One date of a city-vs-city comparison of a grade: both prices (₹/kg) and B − A. */
export interface CityVsCityRow {
  readonly date: string;
  readonly a: number | null;
  readonly b: number | null;
  /** b − a, 2 decimals; null unless both cities have a price that day. */
  readonly difference: number | null;
}

/** City sheets are ₹/kg to the paisa: a difference of two is too. */
const CITY_DIFFERENCE = { unit: '₹/kg' } as const;

/** One grade's rows of two cities, one row per date (ascending), with the difference B − A. */
export function cityVsCity(rows: readonly CityPriceRow[], a: string, b: string): CityVsCityRow[] {
  const byDate = new Map<string, { a: number | null; b: number | null }>();
  for (const row of rows) {
    if (row.city !== a && row.city !== b) continue;
    const entry = byDate.get(row.date) ?? { a: null, b: null };
    if (row.city === a) entry.a = row.price;
    if (row.city === b) entry.b = row.price;
    byDate.set(row.date, entry);
  }
  return [...byDate]
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
    .map(([date, { a: pa, b: pb }]) => ({ date, a: pa, b: pb, difference: pa !== null && pb !== null ? priceValue(pb - pa, CITY_DIFFERENCE) : null }));
}

/** The month's sheet dates, and which one to show: the one asked for if it is among them, else the newest. */
export function pickSheetDate(dates: readonly string[], asked: string | null): string | null {
  if (asked && dates.includes(asked)) return asked;
  return dates.at(-1) ?? null;
}

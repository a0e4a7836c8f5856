/** City-wise sheets shaped for the legacy API and the screen (pure). */
import { allGrades, cities, polymers } from './catalog.ts';
import { toSlashedDate } from './dates.ts';
import type { CityPriceRow } from './priceTypes.ts';

/** One price line: `display` is what a trader reads, `call` the grade key the API uses. */
export interface CityEntry {
  readonly type: string;
  readonly display: string;
  readonly call: string;
  /** Rs/kg incl. GST. */
  readonly price: number;
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
      return {
        type: r.polymerType,
        display: `${ref.polymer.slug} ${ref.grade.name}`,
        call: r.grade,
        price: r.price,
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

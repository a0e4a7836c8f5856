/**
 * Every price the product keeps, as lines of dated values with their basis: the catalog series,
 * each city's sheet per grade, each global-bazaar country's offers per grade, and the customs
 * exchange rate, and each producer's list line (`list.reliance.ppRaffia.jamnagar`). One id per line, built here only, so the consistency check
 * (src/lib/consistency.ts) and the quotes of news posts (src/lib/newsQuotes.ts) name a price the
 * same way. Pure.
 */
import type { Basis } from './basis.ts';
import { allGrades, cities, cityBasis, customsRateBasis, globalBazaarCountries, offerBasis, polymers } from './catalog.ts';
import type { CustomsRateNotification } from './customsRates.ts';
import type { IsoDate } from './dates.ts';
import { LIST_LINES, lineIdOf, listBasis, type ProducerPriceRecord } from './producerPrices.ts';
import type { CityPriceRow, OfferRecord, PricePoint } from './priceTypes.ts';
import { allSeries, seriesBasis } from './seriesCatalog.ts';

export interface PriceLine {
  /** `historical.ppRaffia.mumbai` (a series id), `city.mumbai.ppRaffia`, `offer.India.ppRaffia`, `customs.usdinr`. */
  readonly id: string;
  readonly label: string;
  /** What is priced: a grade key, a feedstock slug, `USDINR`. Two lines of one product and one basis are one price. */
  readonly product: string;
  readonly basis: Basis;
  /** Ascending by date, one value a date. */
  readonly points: readonly PricePoint[];
}

export const cityLineId = (city: string, grade: string): string => `city.${city}.${grade}`;
export const offerLineId = (country: string, grade: string): string => `offer.${country}.${grade}`;
export const CUSTOMS_LINE_ID = 'customs.usdinr';
/** A producer's list line (src/lib/producerPrices.ts `listLineId`) as a price line. */
export const LIST_LINE_PREFIX = 'list.';
export const listPriceLineId = (listLine: string): string => `${LIST_LINE_PREFIX}${listLine}`;

/** The prices a store or the generator holds, in the shapes they keep them. */
export interface PriceData {
  readonly points: ReadonlyMap<string, readonly PricePoint[]>;
  readonly citySheets: readonly CityPriceRow[];
  readonly offers: readonly OfferRecord[];
  readonly customsRates: readonly CustomsRateNotification[];
  /** Producers' list prices (each list from its effective date); absent where not read. */
  readonly producerPrices?: readonly ProducerPriceRecord[] | undefined;
}

const byDate = (a: PricePoint, b: PricePoint): number => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0);

/** Every line of `data` that has at least one value. */
export function priceLines(data: PriceData): PriceLine[] {
  const lines: PriceLine[] = [];
  for (const series of allSeries) {
    const points = data.points.get(series.id);
    if (points?.length) lines.push({ id: series.id, label: series.label, product: series.product, basis: seriesBasis(series), points: points.toSorted(byDate) });
  }
  const cityPoints = new Map<string, PricePoint[]>();
  for (const row of data.citySheets) {
    const id = cityLineId(row.city, row.grade);
    const list = cityPoints.get(id) ?? [];
    list.push({ date: row.date, value: row.price, low: row.low, high: row.high });
    cityPoints.set(id, list);
  }
  const offerPoints = new Map<string, PricePoint[]>();
  for (const offer of data.offers) {
    for (const p of polymers) {
      for (const g of p.grades) {
        const value = offer.data[p.slug]?.[g.name];
        if (value === undefined) continue;
        const id = offerLineId(offer.country, g.key);
        const list = offerPoints.get(id) ?? [];
        const range = offer.ranges?.[p.slug]?.[g.name];
        list.push({ date: offer.date, value, low: range?.low, high: range?.high });
        offerPoints.set(id, list);
      }
    }
  }
  for (const { polymer, grade } of allGrades) {
    for (const city of cities) {
      const points = cityPoints.get(cityLineId(city.slug, grade.key));
      if (points) lines.push({ id: cityLineId(city.slug, grade.key), label: `${polymer.slug} ${grade.name} · ${city.name} (city-wise)`, product: grade.key, basis: cityBasis(city), points: points.toSorted(byDate) });
    }
    for (const country of globalBazaarCountries) {
      const points = offerPoints.get(offerLineId(country.slug, grade.key));
      if (points) lines.push({ id: offerLineId(country.slug, grade.key), label: `${polymer.slug} ${grade.name} · ${country.name} offers`, product: grade.key, basis: offerBasis(country), points: points.toSorted(byDate) });
    }
  }
  if (data.customsRates.length > 0) {
    const points = data.customsRates.map((n) => ({ date: n.effectiveFrom, value: n.importRate })).toSorted(byDate);
    lines.push({ id: CUSTOMS_LINE_ID, label: 'Customs exchange rate, imports (CBIC)', product: 'USDINR', basis: customsRateBasis, points });
  }
  const listPoints = new Map<string, PricePoint[]>();
  for (const record of data.producerPrices ?? []) {
    const id = lineIdOf(record);
    listPoints.set(id, [...(listPoints.get(id) ?? []), { date: record.effective, value: record.value }]);
  }
  for (const line of LIST_LINES) {
    const points = listPoints.get(line.id);
    // Each producer's list is its own product: two producers' lists at one depot are two prices, not one in disagreement.
    if (points) lines.push({ id: listPriceLineId(line.id), label: `${line.producer.name} ${line.gradeName} · ${line.location.name} (list price)`, product: `${line.grade}@${line.producer.id}`, basis: listBasis(line), points: points.toSorted(byDate) });
  }
  return lines;
}

/** The line's value as it stood on `date`: its newest point on or before it, or null before its first. */
export function valueAsOf(line: PriceLine, date: IsoDate): PricePoint | null {
  let lo = 0;
  let hi = line.points.length - 1;
  let found: PricePoint | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const point = line.points[mid]!;
    if (point.date <= date) {
      found = point;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

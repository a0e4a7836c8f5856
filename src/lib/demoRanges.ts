/**
 * The demo data's ranges (issue 20): where a price's basis quotes a range (src/lib/catalog.ts:
 * the historical CIF Nhava Sheva assessments, the city-wise sheets and the global-bazaar offers),
 * the generated price becomes the mid of a low and a high around it, the spread varying by
 * date. The generator (src/lib/demoData.ts) keeps making single numbers; this step only adds
 * the ends, so every mid is the number the generator made and whatever compares demo numbers
 * (the consistency check) still agrees.
 */
import { cityBasis, findCity, findCountry, offerBasis } from './catalog.ts';
import { decimalsOf, roundTo, type Quoting } from './numbers.ts';
import type { CityPriceRow, OfferRecord, PricePoint, Quote } from './priceTypes.ts';
import { midOf, offerCellsOf, offerDayOf, type OfferCells } from './quotes.ts';
import { seriesBasis, type SeriesDef } from './seriesCatalog.ts';
import type { PriceUnit } from './units.ts';

/** Half the narrowest demo range, per unit: US$5/t either side, ₹0.25/kg either side. */
const HALF_SPREAD: Partial<Record<PriceUnit, number>> = { 'US$/t': 5, '₹/kg': 0.25 };

/** FNV-1a: a stable spread per price and date. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** `value` as a range around it (1, 2 or 3 half-spreads either side), or null when the mid would not be `value`. */
export function demoRange(value: number, quoting: Quoting, key: string): { low: number; high: number } | null {
  const half = HALF_SPREAD[quoting.unit];
  if (half === undefined) return null;
  const width = half * (1 + (hash(key) % 3));
  const decimals = decimalsOf(quoting);
  const low = roundTo(value - width, decimals);
  const high = roundTo(value + width, decimals);
  return midOf(low, high) === value ? { low, high } : null;
}

/** The series' points with ranges where the series is range-quoted. */
export function withDemoRanges(series: SeriesDef, points: readonly PricePoint[]): PricePoint[] {
  const basis = seriesBasis(series);
  if (basis.quotes !== 'range') return [...points];
  return points.map((p) => ({ ...p, ...demoRange(p.value, basis, `${series.id}:${p.date}`) }));
}

/** City rows with ranges where the city's sheet is range-quoted. */
export function cityRowsWithDemoRanges(rows: readonly CityPriceRow[]): CityPriceRow[] {
  return rows.map((row) => {
    const city = findCity(row.city);
    const basis = city ? cityBasis(city) : null;
    if (basis?.quotes !== 'range') return row;
    return { ...row, ...demoRange(row.price, basis, `${row.city}:${row.grade}:${row.date}`) };
  });
}

/** Offer days with a range in every cell where the country's offers are range-quoted. */
export function offersWithDemoRanges(offers: readonly OfferRecord[]): OfferRecord[] {
  return offers.map((offer) => {
    const country = findCountry(offer.country);
    const basis = country ? offerBasis(country) : null;
    if (basis?.quotes !== 'range') return offer;
    const cells: OfferCells = Object.fromEntries(
      Object.entries(offerCellsOf(offer)).map(([group, grades]) => [
        group,
        Object.fromEntries(Object.entries(grades).map(([grade, quote]): [string, Quote] => [grade, { ...quote, ...demoRange(quote.value, basis, `${offer.country}:${group}:${grade}:${offer.date}`) }])),
      ]),
    );
    return { country: offer.country, date: offer.date, ...offerDayOf(cells) };
  });
}

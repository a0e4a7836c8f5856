/**
 * Reads a store's prices as price lines (src/lib/priceLines.ts): for the consistency check
 * (`npm run data:check`) and for the seed posts' quotes when the prices are already stored.
 */
import { allGrades, cities, globalBazaarCountries } from '../lib/catalog.ts';
import { priceLines, type PriceLine } from '../lib/priceLines.ts';
import type { CityPriceRow, OfferRecord, PricePoint } from '../lib/priceTypes.ts';
import { allSeries } from '../lib/seriesCatalog.ts';
import type { Store } from './store/index.ts';

/** How far back offers are looked for: the demo history's twelve years and a margin. */
const OFFER_YEARS = 14;

type LineReads = Pick<Store, 'points' | 'cityGradeHistory' | 'latestOfferMonth' | 'offersInMonth' | 'listCustomsRates' | 'listProducerPrices'>;

/** Every line the store holds (or only the ids of `only`, when given). */
export async function readPriceLines(store: LineReads, only?: ReadonlySet<string>): Promise<PriceLine[]> {
  const wanted = (prefix: string) => !only || [...only].some((id) => id.startsWith(prefix));
  const points = new Map<string, PricePoint[]>();
  for (const series of allSeries) if (!only || only.has(series.id)) points.set(series.id, await store.points(series.id));
  const citySheets: CityPriceRow[] = [];
  if (wanted('city.')) {
    for (const { grade } of allGrades) citySheets.push(...(await store.cityGradeHistory(grade.key, cities.map((c) => c.slug), {})));
  }
  const offers: OfferRecord[] = [];
  for (const country of globalBazaarCountries) {
    if (!wanted(`offer.${country.slug}.`)) continue;
    const latest = await store.latestOfferMonth(country.slug);
    if (!latest) continue;
    for (let back = 0; back < OFFER_YEARS * 12; back++) {
      const index = latest.year * 12 + latest.month - 1 - back;
      offers.push(...(await store.offersInMonth(country.slug, Math.floor(index / 12), (index % 12) + 1)));
    }
  }
  const customsRates = wanted('customs.') ? await store.listCustomsRates() : [];
  const producerPrices = wanted('list.') ? await store.listProducerPrices() : [];
  const lines = priceLines({ points, citySheets, offers, customsRates, producerPrices });
  return only ? lines.filter((l) => only.has(l.id)) : lines;
}

/**
 * Writes the deterministic demo data (src/lib/demoData.ts) into a store. Used on first open of
 * an empty store and by `npm run seed`. Every write is an idempotent upsert, so seeding twice
 * changes nothing.
 */
import { generateDemoData, DEFAULT_SEED, type DemoData } from '../../lib/demoData.ts';
import type { IsoDate } from '../../lib/dates.ts';
import type { PriceData } from '../../lib/priceLines.ts';
import type { ProducerPriceRecord } from '../../lib/producerPrices.ts';
import { generateProducerDemo, marketFromSeries } from '../../lib/producerDemo.ts';
import { historicalSeriesId } from '../../lib/seriesCatalog.ts';
import type { Store } from './index.ts';
import type { PointRow } from './prices.ts';
import { cityRowsWithDemoRanges, offersWithDemoRanges, withDemoRanges } from '../../lib/demoRanges.ts';

export interface SeedReport {
  readonly series: number;
  readonly points: number;
  readonly cityRows: number;
  readonly offers: number;
  readonly customsRates: number;
  readonly producerPrices: number;
}

type DemoTarget = Pick<Store, 'upsertSeries' | 'upsertCityPrices' | 'upsertOffers' | 'upsertPoints' | 'upsertCustomsRates' | 'importRecords'>;

export const seedDemoPrices = async (store: DemoTarget, today: IsoDate, seed: number = DEFAULT_SEED): Promise<SeedReport> => (await writeDemoData(store, generateDemoData({ seed, today }), today, seed)).report;

/**
 * The demo data exactly as a store holds it once written: with the ranges where a basis quotes
 * them and the producers' lists. The seed's posts quote these lines (src/server/posts/seed.ts),
 * so a quoted range or list price is the one the screens and `npm run data:check` read back.
 */
export function demoAsStored(data: DemoData, today: IsoDate, seed: number = DEFAULT_SEED): PriceData & { readonly producerPrices: ProducerPriceRecord[] } {
  // Producer list prices follow the demo's Mumbai ex-works prices (src/lib/producerDemo.ts).
  const market = marketFromSeries((grade) => data.points.get(historicalSeriesId(grade, 'Mumbai')) ?? []);
  // Ranges where the basis quotes them (src/lib/demoRanges.ts): the generated number is the mid.
  const points = new Map(data.series.map((series) => [series.id, withDemoRanges(series, data.points.get(series.id) ?? [])]));
  return {
    points,
    citySheets: cityRowsWithDemoRanges(data.citySheets),
    offers: offersWithDemoRanges(data.offers),
    customsRates: data.customsRates,
    producerPrices: generateProducerDemo({ today, market, seed }),
  };
}

/** Writes generated demo data as `demoAsStored` shapes it, and gives back what it wrote (the seed's posts then quote the same data). */
export async function writeDemoData(store: DemoTarget, data: DemoData, today: IsoDate, seed: number = DEFAULT_SEED): Promise<{ report: SeedReport; stored: PriceData }> {
  const stored = demoAsStored(data, today, seed);
  const producerPrices = await store.importRecords('producerPrices', stored.producerPrices);
  await store.upsertSeries(data.series);
  const rows: PointRow[] = [];
  for (const [seriesId, points] of stored.points) for (const p of points) rows.push({ seriesId, ...p });
  // Points last: "no points yet" is how a first start knows to seed, so a seed cut short
  // anywhere before them is simply run again (every write is an idempotent upsert).
  const cityRows = await store.upsertCityPrices(stored.citySheets);
  const offers = await store.upsertOffers(stored.offers);
  const customsRates = await store.upsertCustomsRates(stored.customsRates);
  const points = await store.upsertPoints(rows);
  return { report: { series: data.series.length, points, cityRows, offers, customsRates, producerPrices }, stored };
}

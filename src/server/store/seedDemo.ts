/**
 * Writes the deterministic demo data (src/lib/demoData.ts) into a store. Used on first open of
 * an empty store and by `npm run seed`. Every write is an idempotent upsert, so seeding twice
 * changes nothing.
 */
import { generateDemoData, DEFAULT_SEED, type DemoData } from '../../lib/demoData.ts';
import type { IsoDate } from '../../lib/dates.ts';
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

export const seedDemoPrices = (store: DemoTarget, today: IsoDate, seed: number = DEFAULT_SEED): Promise<SeedReport> => writeDemoData(store, generateDemoData({ seed, today }), today, seed);

/** Writes generated demo data (the seed's posts then quote the same data: src/server/posts/seed.ts). */
export async function writeDemoData(store: DemoTarget, data: DemoData, today: IsoDate, seed: number = DEFAULT_SEED): Promise<SeedReport> {
  // Producer list prices follow the demo's Mumbai ex-works prices (src/lib/producerDemo.ts).
  const market = marketFromSeries((grade) => data.points.get(historicalSeriesId(grade, 'Mumbai')) ?? []);
  const producerPrices = await store.importRecords('producerPrices', generateProducerDemo({ today, market, seed }));
  await store.upsertSeries(data.series);
  const rows: PointRow[] = [];
  // Ranges where the basis quotes them (src/lib/demoRanges.ts): the generated number is the mid.
  for (const series of data.series) for (const p of withDemoRanges(series, data.points.get(series.id) ?? [])) rows.push({ seriesId: series.id, ...p });
  // Points last: "no points yet" is how a first start knows to seed, so a seed cut short
  // anywhere before them is simply run again (every write is an idempotent upsert).
  const cityRows = await store.upsertCityPrices(cityRowsWithDemoRanges(data.citySheets));
  const offers = await store.upsertOffers(offersWithDemoRanges(data.offers));
  const customsRates = await store.upsertCustomsRates(data.customsRates);
  const points = await store.upsertPoints(rows);
  return { series: data.series.length, points, cityRows, offers, customsRates, producerPrices };
}

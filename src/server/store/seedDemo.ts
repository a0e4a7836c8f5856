/**
 * Writes the deterministic demo data (src/lib/demoData.ts) into a store. Used on first open of
 * an empty store and by `npm run seed`. Every write is an idempotent upsert, so seeding twice
 * changes nothing.
 */
import { generateDemoData, DEFAULT_SEED } from '../../lib/demoData.ts';
import type { IsoDate } from '../../lib/dates.ts';
import { generateProducerDemo, marketFromSeries } from '../../lib/producerDemo.ts';
import { historicalSeriesId } from '../../lib/seriesCatalog.ts';
import type { PointRow, PriceStore } from './prices.ts';
import type { TransferStore } from './transfer.ts';

export interface SeedReport {
  readonly series: number;
  readonly points: number;
  readonly cityRows: number;
  readonly offers: number;
  readonly producerPrices: number;
}

export async function seedDemoPrices(store: PriceStore & Pick<TransferStore, 'importRecords'>, today: IsoDate, seed: number = DEFAULT_SEED): Promise<SeedReport> {
  const data = generateDemoData({ seed, today });
  // Producer list prices follow the demo's Mumbai ex-works prices (src/lib/producerDemo.ts).
  const market = marketFromSeries((grade) => data.points.get(historicalSeriesId(grade, 'Mumbai')) ?? []);
  const producerPrices = await store.importRecords('producerPrices', generateProducerDemo({ today, market, seed }));
  await store.upsertSeries(data.series);
  const rows: PointRow[] = [];
  for (const [seriesId, points] of data.points) for (const p of points) rows.push({ seriesId, date: p.date, value: p.value });
  // Points last: "no points yet" is how a first start knows to seed, so a seed cut short
  // anywhere before them is simply run again (every write is an idempotent upsert).
  const cityRows = await store.upsertCityPrices(data.citySheets);
  const offers = await store.upsertOffers(data.offers);
  const points = await store.upsertPoints(rows);
  return { series: data.series.length, points, cityRows, offers, producerPrices };
}

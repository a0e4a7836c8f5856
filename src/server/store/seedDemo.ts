/**
 * Writes the deterministic demo data (src/lib/demoData.ts) into a store. Used on first open of
 * an empty store and by `npm run seed`. Every write is an idempotent upsert, so seeding twice
 * changes nothing.
 */
import { generateDemoData, DEFAULT_SEED } from '../../lib/demoData.ts';
import type { IsoDate } from '../../lib/dates.ts';
import { cityRowsWithDemoRanges, withDemoRanges } from '../../lib/demoRanges.ts';
import type { PointRow, PriceStore } from './prices.ts';

export interface SeedReport {
  readonly series: number;
  readonly points: number;
  readonly cityRows: number;
  readonly offers: number;
}

export async function seedDemoPrices(store: PriceStore, today: IsoDate, seed: number = DEFAULT_SEED): Promise<SeedReport> {
  const data = generateDemoData({ seed, today });
  await store.upsertSeries(data.series);
  const rows: PointRow[] = [];
  // Ranges where the basis quotes them (src/lib/demoRanges.ts): the generated number is the mid.
  for (const series of data.series) for (const p of withDemoRanges(series, data.points.get(series.id) ?? [])) rows.push({ seriesId: series.id, ...p });
  // Points last: "no points yet" is how a first start knows to seed, so a seed cut short
  // anywhere before them is simply run again (every write is an idempotent upsert).
  const cityRows = await store.upsertCityPrices(cityRowsWithDemoRanges(data.citySheets));
  const offers = await store.upsertOffers(data.offers);
  const points = await store.upsertPoints(rows);
  return { series: data.series.length, points, cityRows, offers };
}

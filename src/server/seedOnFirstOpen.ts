/**
 * DESIGN §7: no configuration = the embedded default with demo data. The first open of a store
 * without prices fills it with the deterministic demo data (src/lib/demoData.ts), and an empty
 * banner table with the `banners` collection. A filled store is left alone.
 */
import { getCollection } from 'astro:content';
import { isoDateOf } from '../lib/dates.ts';
import type { Store } from './store/index.ts';
import { seedDemoPrices } from './store/seedDemo.ts';

async function bannersFromContent() {
  try {
    return (await getCollection('banners')).map((entry) => entry.data);
  } catch {
    return [];
  }
}

export async function seedIfEmpty(store: Store, now: Date = new Date()): Promise<void> {
  if (await store.hasNoPrices()) await seedDemoPrices(store, isoDateOf(now));
  if ((await store.listBanners()).length === 0) {
    const banners = await bannersFromContent();
    if (banners.length > 0) await store.replaceBanners(banners);
  }
}

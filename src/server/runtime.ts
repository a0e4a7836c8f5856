/**
 * The running server's one store: opened once per process from DATA_DIR (astro:env), migrated,
 * and filled with the deterministic demo data the first time it is empty (DESIGN §7: no
 * configuration = the embedded default with demo data). Store modules stay free of astro:*
 * so scripts can run them under plain Node; this module is the seam.
 */
import { resolve } from 'node:path';
import { getCollection } from 'astro:content';
import { DATA_DIR } from 'astro:env/server';
import { isoDateOf } from '../lib/dates.ts';
import { openStore, sqliteUrlFor, type Store } from './store/index.ts';
import { seedDemoPrices } from './store/seedDemo.ts';

let opening: Promise<Store> | null = null;

async function bannersFromContent() {
  try {
    return (await getCollection('banners')).map((entry) => entry.data);
  } catch {
    return [];
  }
}

/** Seeds prices and banners into an empty store; a filled store is left alone. */
export async function seedIfEmpty(store: Store, now: Date = new Date()): Promise<void> {
  if (await store.hasNoPrices()) await seedDemoPrices(store, isoDateOf(now));
  if ((await store.listBanners()).length === 0) {
    const banners = await bannersFromContent();
    if (banners.length > 0) await store.replaceBanners(banners);
  }
}

export function getStore(): Promise<Store> {
  opening ??= (async () => {
    const store = await openStore({ url: sqliteUrlFor(resolve(DATA_DIR)) });
    await seedIfEmpty(store);
    return store;
  })().catch((error: unknown) => {
    opening = null;
    throw error;
  });
  return opening;
}

/**
 * No configuration = the embedded default with demo data (docs/architecture.md, "Modes and security"). The first open of a store
 * without prices fills it with the deterministic demo data (src/lib/demoData.ts), an empty
 * banner table with the `banners` collection, and a store without posts with the demo posts
 * (the `newsSeed` collection, src/server/posts/seed.ts), their prices quoted from the data of
 * their dates. A filled store is left alone. A store without forecasts gets the demo desk's year
 * of calls on the pages' series, their baselines and scores (src/server/forecasts/records.ts),
 * from the prices it holds then.
 */
import { getCollection } from 'astro:content';
import { isoDateOf } from '../lib/dates.ts';
import type { Store } from './store/index.ts';
import { generateDemoData } from '../lib/demoData.ts';
import { priceLines, type PriceLine } from '../lib/priceLines.ts';
import { linesQuotedBy, postOfSeed, quotePosts } from './posts/seed.ts';
import { readPriceLines } from './priceLines.ts';
import { writeDemoData } from './store/seedDemo.ts';
import { augursEts } from './forecasts/ets.ts';
import { seedDemoForecasts } from './forecasts/records.ts';

async function bannersFromContent() {
  try {
    return (await getCollection('banners')).map((entry) => entry.data);
  } catch {
    return [];
  }
}

/** The demo posts of the `newsSeed` collection (empty when the content store is not there). */
export async function seedPostsFromContent() {
  try {
    return (await getCollection('newsSeed')).map((entry) => postOfSeed(entry.id, entry.data, entry.body ?? ''));
  } catch (error) {
    console.warn('[seed] demo posts skipped: the newsSeed collection could not be read', error);
    return [];
  }
}

export async function seedIfEmpty(store: Store, now: Date = new Date()): Promise<void> {
  // Prices first: the demo posts quote them as they stood on each post's date.
  let lines: PriceLine[] | null = null;
  if (await store.hasNoPrices()) {
    const data = generateDemoData({ today: isoDateOf(now) });
    lines = priceLines((await writeDemoData(store, data, isoDateOf(now))).stored);
  }
  if (await store.hasNoPosts()) {
    const posts = await seedPostsFromContent();
    if (posts.length > 0) {
      const quoted = quotePosts(posts, lines ?? (await readPriceLines(store, linesQuotedBy(posts))));
      for (const why of quoted.skipped) console.warn(`[seed] demo post left out: ${why}`);
      await store.seedPosts(quoted.posts);
    }
  }
  if ((await store.listBanners()).length === 0) {
    const banners = await bannersFromContent();
    if (banners.length > 0) await store.replaceBanners(banners);
  }
}

/**
 * The demo desk's calls into a store without forecasts: ≈ 9 s of CPU for the fits, so it runs
 * after the store has opened and the forecast pages wait for it (runtime.ts, forecastsSeeded),
 * not every request.
 */
export async function seedForecastsIfEmpty(store: Store, now: Date = new Date()): Promise<void> {
  const started = performance.now();
  const written = await seedDemoForecasts(store, augursEts, now, isoDateOf(now));
  if (written) console.info(`[seed] ${written.forecasts} demo forecasts and ${written.scores} scores in ${Math.round(performance.now() - started)} ms`);
}

// `npm run seed`: fills the configured store (by default SQLite under DATA_DIR, ./data; see
// src/server/store/open.ts) with the deterministic demo data, up to today (IST), the seed
// banners, the posts of src/content/news/ (their price templates filled from the data of
// each post's date: src/lib/newsQuotes.ts) and, into a store without forecasts, the demo desk's
// year of calls with their baselines and scores (src/server/forecasts/records.ts). Idempotent: running it again rewrites the same
// prices and writes only posts that are not there yet (the desk's edits stay).
// `npm run seed -- --posts` imports the posts only (e.g. into a production store, which never
// gets invented prices).
// Runs under plain Node 24 (type stripping): imports carry their .ts extensions.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { isoDateOf } from '../src/lib/dates.ts';
import { readConfig } from '../src/server/config/settings.ts';
import { describeStore, openConfiguredStore, storeConfigFrom } from '../src/server/store/open.ts';
import type { Banner } from '../src/server/store/prices.ts';
import { linesQuotedBy, postOfSeed, quotePosts, seedIdOf, seedPostSchema } from '../src/server/posts/seed.ts';
import type { Post } from '../src/server/store/posts.ts';
import { writeDemoData } from '../src/server/store/seedDemo.ts';
import { generateDemoData } from '../src/lib/demoData.ts';
import { priceLines, type PriceLine } from '../src/lib/priceLines.ts';
import { readPriceLines } from '../src/server/priceLines.ts';
import { augursEts } from '../src/server/forecasts/ets.ts';
import { seedDemoForecasts } from '../src/server/forecasts/records.ts';

/** The seed posts, read and checked as the content collection reads them (frontmatter + body). */
function seedPostsFromFiles(dir: string): Post[] {
  const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.md')).toSorted();
  return files.map((file) => {
    const text = readFileSync(join(dir, file), 'utf8');
    const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
    if (!match) throw new Error(`${file}: no frontmatter`);
    const data = seedPostSchema.safeParse(parseYaml(match[1]!));
    if (!data.success) throw new Error(`${file}: ${data.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    return postOfSeed(seedIdOf(file), data.data, match[2]!);
  });
}

const postsOnly = process.argv.includes('--posts');

process.env['METADATA_SERVER_DETECTION'] ??= 'none';
const config = storeConfigFrom(readConfig((name) => process.env[name]).store);
const seed = process.env['SEED'] ? Number(process.env['SEED']) : undefined;
const started = performance.now();
const store = await openConfiguredStore(config);
try {
  // Prices first: the posts quote them as they stood on each post's date.
  let lines: PriceLine[] | null = null;
  if (!postsOnly) {
    const data = generateDemoData({ today: isoDateOf(new Date()), seed });
    const { report, stored } = await writeDemoData(store, data, isoDateOf(new Date()), seed);
    lines = priceLines(stored);
    // Banners come from the content collection's seed file, read as plain JSON here.
    try {
      const banners = JSON.parse(readFileSync(resolve('src/content/banners.json'), 'utf8')) as Banner[];
      await store.replaceBanners(banners);
      console.log(`[seed] ${banners.length} banners`);
    } catch (error) {
      console.warn(`[seed] banners skipped: ${(error as Error).message}`);
    }
    const now = new Date();
    const forecasts = await seedDemoForecasts(store, augursEts, now, isoDateOf(now));
    console.log(forecasts ? `[seed] ${forecasts.forecasts} demo forecasts, ${forecasts.scores} scores` : '[seed] forecasts were there already: left as they are');
    const ms = Math.round(performance.now() - started);
    console.log(
      `[seed] ${report.series} series, ${report.points} points, ${report.cityRows} city rows, ${report.offers} offers, ${report.customsRates} customs notifications, ${report.producerPrices} producer list prices into ${describeStore(config)} in ${ms} ms`,
    );
  }
  const files = seedPostsFromFiles(resolve('src/content/news'));
  const quoted = quotePosts(files, lines ?? (await readPriceLines(store, linesQuotedBy(files))));
  for (const why of quoted.skipped) console.warn(`[seed] post left out: ${why}`);
  const written = await store.seedPosts(quoted.posts);
  console.log(`[seed] ${written} of ${quoted.posts.length} posts written (the others were there already)`);
} finally {
  await store.close();
}

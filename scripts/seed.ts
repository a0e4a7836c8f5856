// `npm run seed`: fills the configured store (by default SQLite under DATA_DIR, ./data; see
// src/server/store/open.ts) with the deterministic demo data, up to today (IST). Idempotent:
// running it again rewrites the same values.
// Runs under plain Node 24 (type stripping): imports carry their .ts extensions.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isoDateOf } from '../src/lib/dates.ts';
import { describeStore, openConfiguredStore, storeConfigFrom } from '../src/server/store/open.ts';
import type { Banner } from '../src/server/store/prices.ts';
import { seedDemoPrices } from '../src/server/store/seedDemo.ts';

process.env['METADATA_SERVER_DETECTION'] ??= 'none';
const config = storeConfigFrom({ ...process.env, DATA_DIR: resolve(process.env['DATA_DIR'] ?? './data') });
const seed = process.env['SEED'] ? Number(process.env['SEED']) : undefined;
const started = performance.now();
const store = await openConfiguredStore(config);
try {
  const report = await seedDemoPrices(store, isoDateOf(new Date()), seed);
  // Banners come from the content collection's seed file, read as plain JSON here.
  try {
    const banners = JSON.parse(readFileSync(resolve('src/content/banners.json'), 'utf8')) as Banner[];
    await store.replaceBanners(banners);
    console.log(`[seed] ${banners.length} banners`);
  } catch (error) {
    console.warn(`[seed] banners skipped: ${(error as Error).message}`);
  }
  const ms = Math.round(performance.now() - started);
  console.log(
    `[seed] ${report.series} series, ${report.points} points, ${report.cityRows} city rows, ${report.offers} offers into ${describeStore(config)} in ${ms} ms`,
  );
} finally {
  await store.close();
}

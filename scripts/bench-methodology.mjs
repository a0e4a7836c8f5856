#!/usr/bin/env node
// `npm run bench:methodology`: Lighthouse (mobile) on the public methodology pages (/methodology
// and one page per family of prices, issue 20) as an anonymous reader gets them, against the
// production server as `npm start` runs it, loopback only. Aim: performance ≥ 95,
// accessibility 100, SEO 100, on the median of BENCH_RUNS runs per page.
//
// Env: BENCH_PORT (default 4596), BENCH_EMULATOR_HOST (default 127.0.0.1:9594; uses the next two
// ports too), BENCH_RUNS (default 3).
import { METHODOLOGY_FAMILIES, methodologyPath } from '../src/lib/basis.ts';
import { startBenchSite } from './lib/bench-start.mjs';
import { measurePages } from './lib/lighthouse.mjs';

const PORT = Number(process.env.BENCH_PORT ?? 4596);
const EMULATOR_HOST = process.env.BENCH_EMULATOR_HOST ?? '127.0.0.1:9594';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const AIM = { performance: 95, accessibility: 100, seo: 100 };
const PAGES = [['/methodology', '/methodology'], ...METHODOLOGY_FAMILIES.map((f) => [`/methodology: ${f.name.toLowerCase()}`, methodologyPath(f.slug)])];

const site = await startBenchSite({ port: PORT, emulatorHost: EMULATOR_HOST, dataDir: '.cache/bench-methodology-data' });
let met;
try {
  ({ met } = await measurePages(site.base, PAGES, { runs: RUNS, aim: AIM }));
} finally {
  await site.stop();
}
if (!met) {
  console.log('\nBelow the aim (see the audits above).');
  process.exit(1);
}

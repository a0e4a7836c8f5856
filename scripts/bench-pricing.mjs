#!/usr/bin/env node
// `npm run bench:pricing`: Lighthouse (mobile) on the pages a visitor meets before buying, as
// an anonymous visitor gets them, against the production server as `npm start` runs it (built
// site, Auth emulator, demo data), loopback only: /pricing (aim, issue 21: ≥ 95 in every
// category) and / (the home page, where the ticker answers visitors without an error: best
// practices counts console errors). Runs each page BENCH_RUNS times and checks the median run
// (by performance) against the aim.
//
// Env: BENCH_PORT (default 4596), BENCH_EMULATOR_HOST (default 127.0.0.1:9596; uses the next
// two ports too), BENCH_RUNS (default 3).
import { startBenchSite } from './lib/bench-start.mjs';
import { measurePages } from './lib/lighthouse.mjs';

const PORT = Number(process.env.BENCH_PORT ?? 4596);
const EMULATOR_HOST = process.env.BENCH_EMULATOR_HOST ?? '127.0.0.1:9596';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const AIM = { performance: 95, accessibility: 95, 'best-practices': 95, seo: 95 };
const PAGES = [
  ['/pricing (visitor)', '/pricing'],
  ['/ with the visitor ticker', '/'],
];

// No delivery jobs during the measurement: they are not what a visitor's page costs.
const site = await startBenchSite({ port: PORT, emulatorHost: EMULATOR_HOST, dataDir: '.cache/bench-pricing-data', env: { JOBS_SCHEDULER: 'off' } });
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
console.log('\nEvery page meets the aim.');

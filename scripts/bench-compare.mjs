#!/usr/bin/env node
// `npm run bench:compare`: Lighthouse (mobile) on /compare as a Premium subscriber sees it —
// three series over five years in ₹/kg, the heaviest everyday view — against the production
// server as `npm start` runs it (built site, Auth emulator, demo data), loopback only.
// Aim (issue 16): performance ≥ 90, accessibility 100, on the median of BENCH_RUNS runs per page.
//
// Env: BENCH_PORT (default 4598), BENCH_EMULATOR_HOST (default 127.0.0.1:9598; uses the next
// two ports too), BENCH_RUNS (default 1), BENCH_COOKIE ("name=value": skip signing in).
import { benchSignIn, startBenchSite } from './lib/bench-start.mjs';
import { measurePages } from './lib/lighthouse.mjs';

const PORT = Number(process.env.BENCH_PORT ?? 4598);
const EMULATOR_HOST = process.env.BENCH_EMULATOR_HOST ?? '127.0.0.1:9598';
const RUNS = Number(process.env.BENCH_RUNS ?? 1);
const AIM = { performance: 90, accessibility: 100 };
const PAGES = [
  ['/compare: 3 series, 5 years, ₹/kg (Premium)', '/compare?s=feedstock.naphtha.japan,historical.ppRaffia.mumbai,historical.ppRaffia.cif-ns&range=5Y&unit=inr_kg'],
  ['/compare: nothing chosen yet (Premium)', '/compare'],
];

const site = await startBenchSite({ port: PORT, emulatorHost: EMULATOR_HOST, dataDir: '.cache/bench-compare-data' });
let met;
try {
  const cookie = process.env.BENCH_COOKIE || (await benchSignIn(site.base, EMULATOR_HOST, 'premium@polyindex.test'));
  ({ met } = await measurePages(site.base, PAGES, { runs: RUNS, aim: AIM, cookie }));
} finally {
  await site.stop();
}
if (!met) console.log('\nBelow the aim (see the audits above).');

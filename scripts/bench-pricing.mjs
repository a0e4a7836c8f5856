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
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildIsCurrent, writeBuildStamp } from './lib/build-stamp.mjs';
import { failingAudits, runLighthouse } from './lib/lighthouse.mjs';

const PORT = Number(process.env.BENCH_PORT ?? 4596);
const EMULATOR_HOST = process.env.BENCH_EMULATOR_HOST ?? '127.0.0.1:9596';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const HOST = '127.0.0.1';
const DATA_DIR = resolve('.cache/bench-pricing-data');
const base = `http://${HOST}:${PORT}`;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const AIM = 95;
const PAGES = [
  ['/pricing (visitor)', '/pricing'],
  ['/ with the visitor ticker', '/'],
];

const env = { ...process.env, HOST, DATA_DIR, ASTRO_TELEMETRY_DISABLED: '1' };
mkdirSync(DATA_DIR, { recursive: true });
if (!buildIsCurrent()) {
  console.log('[bench] building the site…');
  const build = spawnSync('astro', ['build'], { stdio: 'inherit', env });
  if (build.status !== 0) process.exit(build.status ?? 1);
  writeBuildStamp();
}

const server = spawn(process.execPath, ['scripts/start.mjs'], { env: { ...env, PORT: String(PORT), FIREBASE_AUTH_EMULATOR_HOST: EMULATOR_HOST, JOBS_SCHEDULER: 'off' }, stdio: ['ignore', 'pipe', 'pipe'] });
let log = '';
server.stdout.on('data', (chunk) => (log += String(chunk)));
server.stderr.on('data', (chunk) => (log += String(chunk)));

let failed = false;
try {
  const deadline = Date.now() + 240_000;
  while (!(await fetch(`${base}/`).then((r) => r.ok, () => false))) {
    if (server.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  console.log(`\nLighthouse, mobile preset (simulated slow 4G, 4× CPU), ${RUNS} run(s) per page, the median checked; aim: ≥ ${AIM} in every category`);
  console.log(`  ${'page'.padEnd(30)} ${'perf'.padStart(5)} ${'a11y'.padStart(5)} ${'bp'.padStart(4)} ${'seo'.padStart(4)} ${'FCP ms'.padStart(7)} ${'LCP ms'.padStart(7)} ${'TBT ms'.padStart(7)} ${'CLS'.padStart(6)} ${'bytes'.padStart(8)}`);
  for (const [name, path] of PAGES) {
    const runs = [];
    for (let run = 0; run < RUNS; run++) {
      const result = await runLighthouse(`${base}${path}`, { formFactor: 'mobile' });
      const { scores, metrics, bytes } = result;
      runs.push(result);
      console.log(
        `  ${name.padEnd(30)} ${String(scores.performance).padStart(5)} ${String(scores.accessibility).padStart(5)} ${String(scores['best-practices']).padStart(4)} ${String(scores.seo).padStart(4)} ${String(metrics.fcpMs).padStart(7)} ${String(metrics.lcpMs).padStart(7)} ${String(metrics.tbtMs).padStart(7)} ${String(metrics.cls).padStart(6)} ${String(bytes).padStart(8)}`,
      );
    }
    const median = runs.toSorted((a, b) => a.scores.performance - b.scores.performance)[Math.floor(runs.length / 2)];
    const below = CATEGORIES.filter((category) => (median.scores[category] ?? 0) < AIM);
    if (below.length > 0) {
      failed = true;
      console.log(`  ${name}: median run below ${AIM} in ${below.join(', ')}`);
      for (const category of below) for (const audit of failingAudits(median.lhr, category)) console.log(`      ${audit}`);
    }
  }
} finally {
  const exited = new Promise((ok) => server.once('exit', ok));
  server.kill('SIGTERM');
  await exited;
}
if (failed) {
  console.log('\nBelow the aim (see above).');
  process.exit(1);
}
console.log('\nEvery page meets the aim.');

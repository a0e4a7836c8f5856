#!/usr/bin/env node
// `npm run bench:compare`: Lighthouse (mobile) on /compare as a Premium subscriber sees it —
// three series over five years in ₹/kg, the heaviest everyday view — against the production
// server as `npm start` runs it (built site, Auth emulator, demo data), loopback only.
// Aim (issue 16): performance ≥ 90, accessibility 100. Prints one row per run.
//
// Env: BENCH_PORT (default 4598), BENCH_EMULATOR_HOST (default 127.0.0.1:9598; uses the next
// two ports too), BENCH_RUNS (default 1), BENCH_COOKIE ("name=value": skip signing in).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildIsCurrent, writeBuildStamp } from './lib/build-stamp.mjs';
import { failingAudits, runLighthouse } from './lib/lighthouse.mjs';
import { sessionCookieOf } from './lib/session-cookie.mjs';

const PORT = Number(process.env.BENCH_PORT ?? 4598);
const EMULATOR_HOST = process.env.BENCH_EMULATOR_HOST ?? '127.0.0.1:9598';
const RUNS = Number(process.env.BENCH_RUNS ?? 1);
const HOST = '127.0.0.1';
const DATA_DIR = resolve('.cache/bench-compare-data');
const base = `http://${HOST}:${PORT}`;
const PAGES = [
  ['/compare: 3 series, 5 years, ₹/kg (Premium)', '/compare?s=feedstock.naphtha.japan,historical.ppRaffia.mumbai,historical.ppRaffia.cif-ns&range=5Y&unit=inr_kg'],
  ['/compare: nothing chosen yet (Premium)', '/compare'],
];

const env = { ...process.env, HOST, DATA_DIR, ASTRO_TELEMETRY_DISABLED: '1' };
mkdirSync(DATA_DIR, { recursive: true });
if (!buildIsCurrent()) {
  console.log('[bench] building the site…');
  const build = spawnSync('astro', ['build'], { stdio: 'inherit', env });
  if (build.status !== 0) process.exit(build.status ?? 1);
  writeBuildStamp();
}

const server = spawn(process.execPath, ['scripts/start.mjs'], { env: { ...env, PORT: String(PORT), FIREBASE_AUTH_EMULATOR_HOST: EMULATOR_HOST }, stdio: ['ignore', 'pipe', 'pipe'] });
let log = '';
server.stdout.on('data', (chunk) => (log += String(chunk)));
server.stderr.on('data', (chunk) => (log += String(chunk)));

async function premiumCookie() {
  const { DEMO_PASSWORD } = await import('../src/server/demoAccounts.ts');
  const signIn = await fetch(`http://${EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'premium@polyindex.test', password: DEMO_PASSWORD, returnSecureToken: true }),
  });
  if (!signIn.ok) throw new Error(`emulator sign-in failed: ${signIn.status}`);
  const { idToken } = /** @type {{ idToken: string }} */ (await signIn.json());
  const session = await fetch(`${base}/api/auth/session`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: base }, body: JSON.stringify({ idToken }) });
  const cookie = sessionCookieOf(session.headers.getSetCookie());
  if (!session.ok || !cookie) throw new Error(`session failed: ${session.status}`);
  return cookie;
}

let failed = false;
try {
  const deadline = Date.now() + 240_000;
  while (!(await fetch(`${base}/`).then((r) => r.ok, () => false))) {
    if (server.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  const cookie = process.env.BENCH_COOKIE || (await premiumCookie());
  console.log(`\nLighthouse, mobile preset (simulated slow 4G, 4× CPU), ${RUNS} run(s) per page; aim: performance ≥ 90, accessibility 100`);
  console.log(`  ${'page'.padEnd(46)} ${'perf'.padStart(5)} ${'a11y'.padStart(5)} ${'bp'.padStart(4)} ${'seo'.padStart(4)} ${'FCP ms'.padStart(7)} ${'LCP ms'.padStart(7)} ${'TBT ms'.padStart(7)} ${'CLS'.padStart(6)}`);
  for (const [name, path] of PAGES) {
    for (let run = 0; run < RUNS; run++) {
      const { scores, metrics, lhr } = await runLighthouse(`${base}${path}`, { cookie, formFactor: 'mobile' });
      console.log(
        `  ${name.padEnd(46)} ${String(scores.performance).padStart(5)} ${String(scores.accessibility).padStart(5)} ${String(scores['best-practices']).padStart(4)} ${String(scores.seo).padStart(4)} ${String(metrics.fcpMs).padStart(7)} ${String(metrics.lcpMs).padStart(7)} ${String(metrics.tbtMs).padStart(7)} ${String(metrics.cls).padStart(6)}`,
      );
      if (scores.performance < 90 || scores.accessibility < 100) {
        failed = true;
        for (const audit of [...failingAudits(lhr, 'accessibility'), ...(scores.performance < 90 ? failingAudits(lhr, 'performance') : [])]) console.log(`      ${audit}`);
      }
    }
  }
} finally {
  const exited = new Promise((ok) => server.once('exit', ok));
  server.kill('SIGTERM');
  await exited;
}
if (failed) console.log('\nBelow the aim on at least one run (see above).');

#!/usr/bin/env node
// `npm run bench`: the budgets of issue 4, measured on loopback only.
//
//   1. /api/feedstock for one series-year (Naphtha Japan, last year, daily), each server in its
//      own process, autocannon in this one:
//      a. bare     a bare node:http server answering the same bytes from memory: the ceiling;
//      b. handler  node:http calling the endpoint's own code (src/server/api/feedstock.ts:
//                  zod validation, body cache, ETag) — with the cache on, and off (SQLite
//                  range read + shaping + JSON + hash on every request); no Astro;
//      c. astro    the production server as `npm start` runs it (scripts/start.mjs: the built
//                  site, the Auth emulator, the demo accounts), signed in as the Premium demo
//                  account through the emulator and /api/auth/session — so each request also
//                  pays the middleware's session verification. BENCH_COOKIE ("name=value")
//                  uses that cookie instead of signing in. Also measured: the public
//                  /api/carousels/ (no session to verify), to separate Astro's own cost.
//      Printed: requests/s, p99 latency, and each row's ratio to the ceiling (aim ≥ 0.5).
//   2. The JavaScript a chart page ships, gzipped: every script the HTML references (scripts,
//      module preloads, island component and renderer URLs) and every chunk they import.
//      Aim ≤ 200 KB.
//
// Env: BENCH_SECONDS (default 4 per run), BENCH_CONNECTIONS (default 10), BENCH_COOKIE,
// BENCH_PORT (default 4599), BENCH_EMULATOR_HOST (default 127.0.0.1:9599; uses the next two
// ports too).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { isoDateOf } from '../src/lib/dates.ts';
import { feedstockSeriesId } from '../src/lib/seriesCatalog.ts';
import { openStore, sqliteUrlFor } from '../src/server/store/index.ts';
import { seedDemoPrices } from '../src/server/store/seedDemo.ts';
import { buildIsCurrent, writeBuildStamp } from './lib/build-stamp.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const GIVEN_COOKIE = process.env.BENCH_COOKIE ?? '';
const PORT = Number(process.env.BENCH_PORT ?? 4599);
const EMULATOR_HOST = process.env.BENCH_EMULATOR_HOST ?? '127.0.0.1:9599';
const HOST = '127.0.0.1';
const DATA_DIR = resolve('.cache/bench-data');
const year = Number(isoDateOf(new Date()).slice(0, 4)) - 1;
const seriesId = feedstockSeriesId('Naphtha', 'japan');
const PATH = `/api/feedstock?name=Naphtha&country=japan&type=Daily&year=${year}`;
const CHART_PAGE = '/crude/Naphtha';

const env = { ...process.env, HOST, DATA_DIR, ASTRO_TELEMETRY_DISABLED: '1' };
mkdirSync(DATA_DIR, { recursive: true });

if (!buildIsCurrent()) {
  console.log('[bench] building the site…');
  const build = spawnSync('astro', ['build'], { stdio: 'inherit', env });
  if (build.status !== 0) process.exit(build.status ?? 1);
  writeBuildStamp();
}

// Seed once here so no server seeds while it is being measured.
const store = await openStore({ url: sqliteUrlFor(DATA_DIR) });
if (await store.hasNoPrices()) await seedDemoPrices(store, isoDateOf(new Date()));
await store.close();

/** Starts a child process and resolves with its port once it prints that it is listening. */
function start(args, extraEnv = {}) {
  const child = spawn(process.execPath, args, { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const ready = /** @type {Promise<number>} */ (
    new Promise((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`${args[0]} did not start in 30 s\n${stderr}`)), 30_000);
      child.stdout.on('data', (chunk) => {
        const m = /listening (\d+)|localhost:(\d+)|127\.0\.0\.1:(\d+)/i.exec(String(chunk));
        if (m) {
          clearTimeout(timer);
          ok(Number(m[1] ?? m[2] ?? m[3]));
        }
      });
      child.on('exit', (code) => fail(new Error(`${args[0]} exited (${code})\n${stderr}`)));
    })
  );
  return { child, ready };
}

async function stop(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((ok) => child.once('exit', ok));
  child.kill('SIGTERM');
  await exited;
}

async function load(name, url, headers = {}) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  return { name, rps: result.requests.average, p99: result.latency.p99, bad: result.non2xx + result.errors + result.timeouts };
}

async function measure(name, mode) {
  const server = start(['scripts/lib/bench-server.mjs', mode, PATH, DATA_DIR]);
  try {
    const port = await server.ready;
    return await load(name, `http://${HOST}:${port}${PATH}`);
  } finally {
    await stop(server.child);
  }
}

const rows = [];
const notes = [];
const ceiling = await measure('bare node:http, same bytes (ceiling)', 'bare');
rows.push(ceiling);
rows.push(await measure('handler, body cache on (no Astro)', 'warm'));
rows.push(await measure('handler, body cache off (no Astro)', 'cold'));

// The production server, as `npm start` runs it.
const astro = spawn(process.execPath, ['scripts/start.mjs'], {
  env: { ...env, PORT: String(PORT), FIREBASE_AUTH_EMULATOR_HOST: EMULATOR_HOST },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let astroLog = '';
astro.stdout.on('data', (chunk) => (astroLog += String(chunk)));
astro.stderr.on('data', (chunk) => (astroLog += String(chunk)));
const astroBase = `http://${HOST}:${PORT}`;

/** Signs the Premium demo account in through the emulator and the site; returns the cookie. */
async function premiumCookie() {
  const { DEMO_PASSWORD } = await import('../src/server/demoAccounts.ts');
  const signIn = await fetch(`http://${EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'premium@polyindex.test', password: DEMO_PASSWORD, returnSecureToken: true }),
  });
  if (!signIn.ok) throw new Error(`emulator sign-in failed: ${signIn.status} ${await signIn.text()}`);
  const { idToken } = /** @type {{ idToken: string }} */ (await signIn.json());
  const session = await fetch(`${astroBase}/api/auth/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: astroBase },
    body: JSON.stringify({ idToken }),
  });
  const setCookie = session.headers.get('set-cookie') ?? '';
  if (!session.ok || !setCookie) throw new Error(`session failed: ${session.status} ${await session.text()}`);
  return setCookie.split(';')[0] ?? '';
}

try {
  const deadline = Date.now() + 240_000;
  for (;;) {
    const up = await fetch(`${astroBase}/`).then((r) => r.ok, () => false);
    if (up) break;
    if (astro.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start:\n${astroLog}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  const cookie = GIVEN_COOKIE || (await premiumCookie());
  const cookieHeaders = { cookie };
  const probe = await fetch(`${astroBase}${PATH}`, { headers: cookieHeaders });
  await probe.arrayBuffer();
  if (probe.status === 200) {
    rows.push(await load('production server /api/feedstock (Premium)', `${astroBase}${PATH}`, cookieHeaders));
  } else {
    notes.push(`production server /api/feedstock: skipped — it answered ${probe.status} with the session cookie.`);
  }
  rows.push(await load('production server /api/carousels/ (public)', `${astroBase}/api/carousels/`));

  console.log(`\n/api/feedstock, one series-year (${seriesId}, ${year}), ${CONNECTIONS} connections, ${SECONDS} s each, loopback`);
  console.log(`  ${'run'.padEnd(46)} ${'req/s'.padStart(8)} ${'p99 ms'.padStart(8)} ${'ratio'.padStart(7)} ${'non-2xx'.padStart(8)}`);
  for (const row of rows) {
    console.log(
      `  ${row.name.padEnd(46)} ${row.rps.toFixed(0).padStart(8)} ${String(row.p99).padStart(8)} ${(row.rps / ceiling.rps).toFixed(2).padStart(7)} ${String(row.bad).padStart(8)}`,
    );
  }
  for (const note of notes) console.log(`  ${note}`);

  // ---- the JavaScript a chart page ships ------------------------------------------------
  const page = await fetch(`${astroBase}${CHART_PAGE}`, { headers: cookieHeaders, redirect: 'manual' });
  if (page.status !== 200) {
    console.log(`\nchart page ${CHART_PAGE}: answered ${page.status}; its JavaScript was not measured.`);
  } else {
    const html = await page.text();
    const seen = new Map();
    const queue = [];
    for (const m of html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)) queue.push(String(m[1]));
    for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) queue.push(String(m[1]));
    for (const m of html.matchAll(/(?:component|renderer)-url="([^"]+)"/g)) queue.push(String(m[1]));
    let inline = 0;
    for (const m of html.matchAll(/<script(?![^>]*\ssrc=)(?![^>]*type="application\/(?:ld\+)?json")[^>]*>([\s\S]*?)<\/script>/g)) {
      inline += gzipSync(String(m[1])).length;
    }
    while (queue.length > 0) {
      const url = new URL(String(queue.shift()), `${astroBase}${CHART_PAGE}`);
      if (url.origin !== astroBase || seen.has(url.pathname)) continue;
      const text = await (await fetch(url)).text();
      seen.set(url.pathname, gzipSync(text).length);
      for (const m of text.matchAll(/(?:import|from)\s*\(?\s*["']([^"']+\.js)["']/g)) queue.push(new URL(String(m[1]), url).href);
    }
    const total = [...seen.values()].reduce((a, b) => a + b, 0) + inline;
    console.log(`\nJavaScript shipped by ${CHART_PAGE}, gzipped: ${(total / 1024).toFixed(1)} KB (budget 200 KB)`);
    for (const [path, size] of [...seen].sort((a, b) => b[1] - a[1])) console.log(`  ${(size / 1024).toFixed(1).padStart(7)} KB  ${path}`);
    console.log(`  ${(inline / 1024).toFixed(1).padStart(7)} KB  inline scripts`);
  }
} finally {
  await stop(astro);
}

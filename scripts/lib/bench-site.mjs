// One site's measurements for `npm run bench` (scripts/bench.mjs): the site of a directory (this
// tree, or a baseline ref's worktree) started as `npm start` starts it, then measured over HTTP
// only, so any version of the code is measured the same way. Loopback only.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { allSeries } from '../../src/lib/seriesCatalog.ts';
import { runLighthouse } from './lighthouse.mjs';
import { benchSignIn } from './bench-start.mjs';

const HOST = '127.0.0.1';
export const IMPORT_ROWS = 100_000;
/** Lighthouse runs per page (the median counts). */
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
/** Alternating bare/measured rounds per throughput row. */
const ROUNDS = 3;
/** Requests per second to GET / during the import. */
const READ_RATE = 200;
/** How long the readers wait after the import for the forecasts' refresh to finish. */
const REFRESH_WAIT_MS = 120_000;
/** How long a first start on a fresh data directory may take to seed the demo forecasts. */
const FORECAST_SEED_WAIT_MS = 600_000;
/** The throughput rows, by name (`npm run bench -- --only feedLatest,feedstock` measures those alone). */
export const THROUGHPUT_ROWS = ['feedstock', 'carousels', 'feedLatest', 'article'];

/** Starts a child and resolves with the port it prints (`listening <port>`). */
function startBare(answerFile) {
  const child = spawn(process.execPath, [resolve('scripts/lib/bench-server.mjs'), answerFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  const ready = new Promise((ok, fail) => {
    child.stdout.on('data', (chunk) => {
      const m = /listening (\d+)/.exec(String(chunk));
      if (m) ok(Number(m[1]));
    });
    child.on('exit', (code) => fail(new Error(`bench-server exited (${code})`)));
  });
  return { child, ready };
}

/** The processes under `pid` (Linux /proc), depth first. */
function descendantsOf(pid) {
  const read = (path, parse) => {
    try {
      return parse(readFileSync(path, 'utf8'));
    } catch {
      return [];
    }
  };
  let tasks;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((task) =>
    read(`/proc/${pid}/task/${task}/children`, (text) => text.trim().split(/\s+/).filter(Boolean).map(Number)).flatMap((child) => [child, ...descendantsOf(child)]),
  );
}

/** The server process `npm start` started (`dist/server/serve.mjs`) under `pid`, or null. */
function serverPidUnder(pid) {
  return descendantsOf(pid).find((child) => {
    try {
      return readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('dist/server/serve.mjs');
    } catch {
      return false;
    }
  }) ?? null;
}

const CLOCK_TICKS_PER_S = 100;
/**
 * CPU time (user + system, ms) a process has used so far, from /proc (null elsewhere). Per
 * request, it says what an answer costs whatever else runs on the machine: throughput on a
 * shared machine swings with the other work, CPU per request much less.
 */
function cpuMsOf(pid) {
  if (!pid) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
  } catch {
    return null;
  }
}

async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((ok) => child.once('exit', ok));
  child.kill('SIGTERM');
  await exited;
}

function load(url, { headers = {}, seconds, connections }) {
  return new Promise((ok, fail) => {
    autocannon({ url, connections, duration: seconds, headers }, (error, result) => (error ? fail(error) : ok(result)));
  });
}
const summary = (result) => ({ rps: Math.round(result.requests.average), p99: result.latency.p99, max: result.latency.max, bad: result.non2xx + result.errors + result.timeouts, requests: result.requests.total });

/** `load`, with the CPU time `pid` spent on it per request (µs; null without /proc). */
async function loadWithCpu(pid, url, options) {
  const before = cpuMsOf(pid);
  const measured = summary(await load(url, options));
  const after = cpuMsOf(pid);
  return { ...measured, cpuUsPerRequest: before === null || after === null || measured.requests === 0 ? null : Math.round(((after - before) * 1000) / measured.requests) };
}

/** The JavaScript a page ships, gzipped: scripts, module preloads, island URLs and their static imports. */
async function pageJavaScript(base, path, headers) {
  const page = await fetch(`${base}${path}`, { headers, redirect: 'manual' });
  if (page.status !== 200) return { path, status: page.status, kb: null, files: [] };
  const html = await page.text();
  const queue = [];
  for (const m of html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)) queue.push(String(m[1]));
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) queue.push(String(m[1]));
  for (const m of html.matchAll(/(?:component|renderer)-url="([^"]+)"/g)) queue.push(String(m[1]));
  let inline = 0;
  for (const m of html.matchAll(/<script(?![^>]*\ssrc=)(?![^>]*type="application\/(?:ld\+)?json")[^>]*>([\s\S]*?)<\/script>/g)) inline += gzipSync(String(m[1]), { level: 9 }).length;
  const seen = new Map();
  while (queue.length > 0) {
    const url = new URL(String(queue.shift()), `${base}${path}`);
    if (url.origin !== base || seen.has(url.pathname)) continue;
    const text = await (await fetch(url)).text();
    seen.set(url.pathname, gzipSync(text, { level: 9 }).length);
    // Static imports only (`import … from "./x.js"`, `import "./x.js"`, `export … from`): what loads with the page.
    for (const m of text.matchAll(/(?:import|export)\s*(?:[\w*{}\s,$]*?\s*from\s*)?["']([^"']+\.js)["']/g)) queue.push(new URL(String(m[1]), url).href);
  }
  const total = [...seen.values()].reduce((a, b) => a + b, 0) + inline;
  return {
    path,
    status: 200,
    kb: Math.round((total / 1024) * 10) / 10,
    islands: [...new Set([...html.matchAll(/component-url="[^"]*\/([A-Za-z]+)\.[^"]*"/g)].map((m) => m[1]))],
    files: [...seen].sort((a, b) => b[1] - a[1]).map(([file, size]) => ({ file, kb: Math.round((size / 1024) * 10) / 10 })),
  };
}

const signIn = benchSignIn;

/** The newest public article the /news listing links to (a premium teaser is skipped). */
async function publicArticle(base) {
  const html = await (await fetch(`${base}/news`)).text();
  const slugs = [...new Set([...html.matchAll(/href="(\/news\/(?!page\/|type\/|search)[^"/?#]+)"/g)].map((m) => m[1]))];
  for (const path of slugs) {
    const page = await fetch(`${base}${path}`);
    if (page.ok && !(await page.text()).includes('data-testid="paywall"')) return path;
  }
  throw new Error('no public article linked from /news');
}

/**
 * An import of IMPORT_ROWS rows that changes every value it names, as an admin would build it:
 * the series' exports, each value moved by a few cents (different on every run), plus earlier
 * weekdays before each daily series' history begins until the file has IMPORT_ROWS rows.
 */
async function importCsv(base, adminCookie, run) {
  const lines = ['series,date,value'];
  const delta = 0.01 * ((run % 7) + 1);
  const daily = [];
  for (const series of allSeries) {
    const response = await fetch(`${base}/api/export/${series.id}.csv`, { headers: { cookie: adminCookie } });
    if (!response.ok) throw new Error(`export of ${series.id}: ${response.status}`);
    // The price rows only: the export begins with its intro, the basis row (with the decimals the
    // series is quoted in: a whole-number series refuses cents) and the header.
    const text = await response.text();
    const decimals = Number(/decimals=(\d+)/.exec(text)?.[1] ?? 2);
    const step = decimals === 0 ? Math.round(delta * 100) : delta;
    const rows = text.split('\n').filter((line) => /^[\w.-]+,\d{4}-\d{2}-\d{2},/.test(line));
    for (const line of rows) {
      const [id, date, value] = line.split(',');
      lines.push(`${id},${date},${(Number(value) + step).toFixed(decimals)}`);
    }
    if (series.frequency === 'daily' && rows[0]) daily.push([...rows[0].split(','), decimals, step]);
  }
  // Older history, one weekday at a time, across the daily series in turn.
  const cursors = daily.map(([id, date, value, decimals, step]) => ({ id, date: new Date(`${date}T00:00:00Z`), value: Number(value), decimals, step }));
  while (lines.length <= IMPORT_ROWS && cursors.length > 0) {
    for (const cursor of cursors) {
      do cursor.date = new Date(cursor.date.getTime() - 86_400_000);
      while ([0, 6].includes(cursor.date.getUTCDay()));
      lines.push(`${cursor.id},${cursor.date.toISOString().slice(0, 10)},${(cursor.value + cursor.step).toFixed(cursor.decimals)}`);
      if (lines.length > IMPORT_ROWS) break;
    }
  }
  return { csv: `${lines.slice(0, IMPORT_ROWS + 1).join('\n')}\n`, rows: Math.min(lines.length - 1, IMPORT_ROWS) };
}

/** A data-feed key of the Platinum demo account, made on its API keys page as a person would. */
async function feedKey(base, emulatorHost) {
  const cookie = await signIn(base, emulatorHost, 'platinum@polyindex.test');
  const post = (fields) =>
    fetch(`${base}/account/api-keys`, { method: 'POST', headers: { cookie, Origin: base, 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
  for (let attempt = 0; attempt < 2; attempt++) {
    const made = await post({ action: 'create', name: `bench ${Date.now()}` });
    const page = await made.text();
    const key = /data-testid="new-key-text"[^>]*>(pik_[\w-]+)</.exec(page)?.[1];
    if (key) return key;
    // Earlier runs left the account at its limit of keys: revoke the oldest and try again.
    const oldest = /name="id" value="([a-z0-9]{12})"/.exec(page)?.[1];
    if (made.status !== 409 || !oldest) throw new Error(`the API keys page answered ${made.status} without a key`);
    await post({ action: 'revoke', id: oldest });
  }
  throw new Error('no key could be made');
}

/**
 * Starts the site of `dir` as `npm start` does and measures every row of issue 14's table, or
 * only the throughput rows named in `only` (then no JavaScript, import or Lighthouse rows).
 * @param {{ dir: string, label: string, port: number, emulatorHost: string, seconds: number, connections: number, lighthouse: boolean, only?: string[] | null, log: (line: string) => void }} options
 */
export async function measureSite({ dir, label, port, emulatorHost, seconds, connections, lighthouse, only = null, log }) {
  const dataDir = resolve('.cache/bench-data', label.replace(/[^\w.-]+/g, '_'));
  mkdirSync(dataDir, { recursive: true });
  // A first start seeds the store; the demo forecasts' seed (seconds of CPU) runs after the site
  // answers, and would fall on the first throughput rows.
  const fresh = !existsSync(join(dataDir, 'polyindex.db'));
  const wanted = (row) => !only || only.includes(row);
  const base = `http://${HOST}:${port}`;
  const site = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: dir,
    // The data feed's key is made with limits no benchmark reaches: the meter is measured, not its 429.
    env: { ...process.env, HOST, PORT: String(port), DATA_DIR: dataDir, FIREBASE_AUTH_EMULATOR_HOST: emulatorHost, ASTRO_TELEMETRY_DISABLED: '1', FEED_RATE_PER_MINUTE: '1000000000', FEED_MONTHLY_QUOTA: '1000000000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let siteLog = '';
  site.stdout.on('data', (chunk) => (siteLog += String(chunk)));
  site.stderr.on('data', (chunk) => (siteLog += String(chunk)));
  const result = { label, dir, rows: {} };
  const work = join(dataDir, 'bench-work');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    const deadline = Date.now() + 300_000;
    for (;;) {
      if ((await fetch(`${base}/`).then((r) => r.ok, () => false))) break;
      if (site.exitCode !== null || Date.now() > deadline) throw new Error(`[${label}] the server did not start:\n${siteLog}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    if (fresh) {
      const waitFrom = Date.now();
      const seeded = () => /\[seed\] (\d+ demo forecasts|demo forecasts failed)/.exec(siteLog);
      while (!seeded() && site.exitCode === null && Date.now() - waitFrom < FORECAST_SEED_WAIT_MS) await new Promise((r) => setTimeout(r, 500));
      log(`  [${label}] fresh data directory: ${seeded() ? `the demo forecasts' seed finished (${seeded()[0]}), waited ${Date.now() - waitFrom} ms` : `no forecast seed line after ${Date.now() - waitFrom} ms; measuring anyway`}`);
    }
    const premium = await signIn(base, emulatorHost, 'premium@polyindex.test');
    const admin = await signIn(base, emulatorHost, 'admin@polyindex.test');
    const year = new Date().getFullYear() - 1;
    const feedstock = `/api/feedstock?name=Naphtha&country=japan&type=Daily&year=${year}`;

    /** An endpoint beside a bare server answering its exact bytes. */
    async function versusBare(name, path, headers) {
      // The bytes as autocannon gets them (it asks for no encoding; fetch would ask for gzip).
      const probe = await fetch(`${base}${path}`, { headers: { ...headers, 'accept-encoding': 'identity' } });
      const body = Buffer.from(await probe.arrayBuffer());
      if (probe.status !== 200) throw new Error(`[${label}] ${path} answered ${probe.status}`);
      const answerFile = join(work, `${name}.json`);
      const answerHeaders = Object.fromEntries([...probe.headers].filter(([h]) => !['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(h)));
      writeFileSync(answerFile, JSON.stringify({ status: probe.status, headers: answerHeaders, body: body.toString('base64') }));
      // Bare and measured runs alternate in short rounds, so a change of load on the machine
      // falls on both; the ratio is the median of the rounds' ratios.
      const bare = startBare(answerFile);
      const rounds = [];
      try {
        const barePort = await bare.ready;
        const slot = Math.max(1, Math.round(seconds / ROUNDS));
        const serverPid = serverPidUnder(site.pid);
        for (let round = 0; round < ROUNDS; round++) {
          const ceiling = await loadWithCpu(bare.child.pid, `http://${HOST}:${barePort}${path}`, { seconds: slot, connections });
          const measured = await loadWithCpu(serverPid, `${base}${path}`, { headers, seconds: slot, connections });
          rounds.push({ ceiling, measured, ratio: measured.rps / ceiling.rps });
        }
      } finally {
        await stop(bare.child);
      }
      const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];
      const cpu = rounds.every((r) => r.measured.cpuUsPerRequest && r.ceiling.cpuUsPerRequest)
        ? { us: median(rounds.map((r) => r.measured.cpuUsPerRequest)), bareUs: median(rounds.map((r) => r.ceiling.cpuUsPerRequest)) }
        : null;
      const result = {
        rps: median(rounds.map((r) => r.measured.rps)),
        bareRps: median(rounds.map((r) => r.ceiling.rps)),
        ratio: Math.round(median(rounds.map((r) => r.ratio)) * 100) / 100,
        p99: median(rounds.map((r) => r.measured.p99)),
        bad: rounds.reduce((sum, r) => sum + r.measured.bad, 0),
        // CPU per request of the server and of bare node:http (median of the rounds), and their
        // ratio: what the req/s ratio would be if each had a core to itself.
        cpuUsPerRequest: cpu?.us ?? null,
        bareCpuUsPerRequest: cpu?.bareUs ?? null,
        cpuRatio: cpu ? Math.round((cpu.bareUs / cpu.us) * 100) / 100 : null,
        rounds: rounds.map((r) => ({ rps: r.measured.rps, bareRps: r.ceiling.rps, p99: r.measured.p99, cpuUs: r.measured.cpuUsPerRequest, bareCpuUs: r.ceiling.cpuUsPerRequest })),
        bytes: body.length,
      };
      log(`  [${label}] ${name}: ${result.rps} req/s (bare ${result.bareRps}), ratio ${result.ratio}, p99 ${result.p99} ms, non-2xx ${result.bad} (median of ${ROUNDS} alternating rounds)${cpu ? `; CPU per request ${cpu.us} µs (bare ${cpu.bareUs} µs), ratio ${result.cpuRatio}` : ''}`);
      return result;
    }
    // Warm: the first data request opens (and on a fresh directory seeds) the store.
    for (let i = 0; i < 3; i++) await (await fetch(`${base}${feedstock}`, { headers: { cookie: premium } })).arrayBuffer();

    if (wanted('feedstock')) result.rows.feedstock = await versusBare('feedstock', feedstock, { cookie: premium });
    if (wanted('carousels')) result.rows.carousels = await versusBare('carousels', '/api/carousels/', {});
    // The data feed with a key (a tree without the feed has no row).
    const key = wanted('feedLatest') ? await feedKey(base, emulatorHost).catch((error) => (log(`  [${label}] no data feed: ${error.message}`), null)) : null;
    if (key) result.rows.feedLatest = await versusBare('feedLatest', '/api/v1/latest?ids=feedstock.naphtha.japan,fx.usdinr,historical.ppRaffia.mumbai', { authorization: `Bearer ${key}` });

    // A public article as an anonymous reader gets it (from the page cache where there is one).
    const article = await publicArticle(base);
    if (wanted('article')) {
      for (let i = 0; i < 3; i++) await (await fetch(`${base}${article}`)).arrayBuffer();
      result.rows.article = await versusBare('article', article, {});
    }
    if (only) return result;

    result.rows.articleJs = await pageJavaScript(base, article, {});
    result.rows.chartJs = await pageJavaScript(base, '/crude/Naphtha', { cookie: premium });
    log(`  [${label}] JavaScript: article ${article} ${result.rows.articleJs.kb} KB, /crude/Naphtha ${result.rows.chartJs.kb} KB (gzip)`);

    // GET / while the admin imports IMPORT_ROWS rows. Readers arrive at a fixed rate (open
    // loop): a stalled event loop then delays every request that arrives meanwhile, as it
    // would real visitors, instead of only the few a closed loop happens to have in flight.
    // The readers go on until the forecasts' refresh after the import has finished (the server's
    // "[forecasts] after a price write" line: every written series with forecasts gets the
    // baseline from its latest price, in the background), so the p99 covers the import and the
    // refresh. A tree without that line (before forecasts) stops REFRESH_WAIT_MS after the import.
    const { csv, rows } = await importCsv(base, admin, Date.now());
    const reader = autocannon({ url: `${base}/`, connections, duration: 600, overallRate: READ_RATE });
    const readerDone = new Promise((ok) => reader.once('done', ok));
    await new Promise((r) => setTimeout(r, 500));
    const logFrom = siteLog.length;
    const started = Date.now();
    const imported = await fetch(`${base}/api/admin/prices/import`, { method: 'POST', headers: { cookie: admin, Origin: base, 'Content-Type': 'text/csv' }, body: csv });
    const importBody = await imported.json();
    const importMs = Date.now() - started;
    const refreshLine = () => /\[forecasts\] after a price write: (\d+) series written, (\d+) with forecasts refreshed in (\d+) ms/.exec(siteLog.slice(logFrom));
    const waitUntil = Date.now() + REFRESH_WAIT_MS;
    while (imported.ok && !refreshLine() && Date.now() < waitUntil) await new Promise((r) => setTimeout(r, 100));
    const refreshed = refreshLine();
    const refreshDoneMs = refreshed ? Date.now() - started : null;
    await new Promise((r) => setTimeout(r, 300));
    reader.stop();
    const during = summary(await readerDone);
    if (!imported.ok) throw new Error(`[${label}] the import failed: ${imported.status} ${JSON.stringify(importBody)}`);
    const refresh = refreshed ? { series: Number(refreshed[1]), covered: Number(refreshed[2]), ms: Number(refreshed[3]), doneAfterStartMs: refreshDoneMs } : null;
    result.rows.importRead = { rows, changed: importBody.changed, importMs, refresh, ...during };
    log(`  [${label}] GET / at ${READ_RATE} req/s during a ${rows}-row import (${importMs} ms, ${importBody.changed} changed)${refresh ? ` and the forecasts' refresh after it (${refresh.covered} series, ${refresh.ms} ms, all done ${refresh.doneAfterStartMs} ms after the import began)` : ''}: p99 ${during.p99} ms, max ${during.max} ms`);

    if (lighthouse) {
      result.lighthouse = {};
      const pages = [
        ['home', '/', undefined],
        ['article', article, undefined],
        ['feedstock', '/crude/Naphtha', premium],
        ['historical', '/historical-data/PP', premium],
        ['graph', '/graph/PP', premium],
        ['citywise', '/indian-bazaar/citywise', premium],
      ];
      // The median run of LIGHTHOUSE_RUNS per page (by performance score): one run on a shared
      // machine can be ten points off.
      for (const [name, path, cookie] of pages) {
        const runs = [];
        for (let i = 0; i < LIGHTHOUSE_RUNS; i++) {
          const { lhr: _full, ...run } = await runLighthouse(`${base}${path}`, { cookie, formFactor: 'mobile' });
          runs.push(run);
        }
        runs.sort((a, b) => a.scores.performance - b.scores.performance);
        const lh = runs[Math.floor(runs.length / 2)];
        result.lighthouse[name] = { path, ...lh, runs: runs.map((r) => r.scores.performance) };
        log(`  [${label}] Lighthouse mobile ${path}: performance ${lh.scores.performance} (runs ${runs.map((r) => r.scores.performance).join(', ')}), TBT ${lh.metrics.tbtMs} ms, LCP ${lh.metrics.lcpMs} ms, ${Math.round(lh.bytes / 1024)} KB`);
      }
    }
    return result;
  } finally {
    await stop(site);
  }
}

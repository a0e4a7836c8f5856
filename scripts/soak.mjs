#!/usr/bin/env node
// `npm run soak [-- --duration 2m]`: the production build under mixed traffic for a bounded time,
// on loopback only. It starts its own site (scripts/start.mjs: SQLite, the Auth emulator,
// sandbox payments) on ports of its own with a fresh DATA_DIR, then runs anonymous readers,
// signed-in chart users, sign-ins and sign-outs, sandbox payments and admin price writes side by
// side. It prints requests, errors by status, p50/p99 by route family, and the server's memory
// (RSS and V8 heap after a full GC, read from the server process through its inspector) at
// start, after warm-up and at the end. Aims: no 5xx; memory growth after warm-up ≤ 20 %.
// Exit status: 0 aims met, 1 missed, 2 bad usage or the site did not start.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sessionCookieOf } from './lib/session-cookie.mjs';

const USAGE = `Usage: npm run soak [-- --duration 10m] [--warmup 1m] [--concurrency 8] [--port 4396]

  --duration     how long the traffic runs (s or m; default 10m)
  --warmup       traffic before the memory baseline (default: a tenth of the duration, at least 10s)
  --concurrency  clients at once (default 8)
  --port         the site's port (default 4396; the Auth emulator uses 9193–9195)`;

function seconds(text) {
  const match = /^(\d+(?:\.\d+)?)(s|m)?$/.exec(text ?? '');
  if (!match) throw new Error(`not a duration: ${text} (e.g. 90s, 10m)`);
  return Number(match[1]) * (match[2] === 'm' ? 60 : 1);
}

let options;
try {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '10m' },
      warmup: { type: 'string' },
      concurrency: { type: 'string', default: '8' },
      port: { type: 'string', default: '4396' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const duration = seconds(values.duration);
  const warmup = values.warmup ? seconds(values.warmup) : Math.max(10, duration / 10);
  const concurrency = Number(values.concurrency);
  if (!(duration > 0 && duration <= 3600) || !(warmup < duration) || !(concurrency >= 1 && concurrency <= 64)) throw new Error('need 0 < duration ≤ 60m, warmup < duration, 1 ≤ concurrency ≤ 64');
  options = { duration, warmup, concurrency, port: Number(values.port) };
} catch (error) {
  console.error(`${error.message}\n\n${USAGE}`);
  process.exit(2);
}

const HOST = '127.0.0.1';
const BASE = `http://${HOST}:${options.port}`;
const EMULATOR = `${HOST}:9193`;
const DATA_DIR = '.cache/soak-data';
const INSPECTOR_PORT = 9229;
const PASSWORD = 'polyindex-demo';

// ---------------------------------------------------------------------------------------------
// The site
rmSync(DATA_DIR, { recursive: true, force: true });
const site = spawn(process.execPath, ['scripts/start.mjs'], {
  env: { ...process.env, HOST, PORT: String(options.port), DATA_DIR, FIREBASE_AUTH_EMULATOR_HOST: EMULATOR, FIREBASE_SERVICE_ACCOUNT: '', DATA_BACKEND: 'sqlite' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let siteLog = '';
const serverLines = [];
site.stdout.on('data', (d) => (siteLog += d));
site.stderr.on('data', (d) => {
  siteLog += d;
  serverLines.push(String(d));
});
const siteExited = new Promise((done) => site.once('exit', (code, signal) => done({ code, signal })));

async function until(what, test, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await test();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function stopSite() {
  if (site.exitCode === null && site.signalCode === null) site.kill('SIGTERM');
  return siteExited;
}

let serverPid;
try {
  console.log(`[soak] starting the site on ${BASE} (DATA_DIR ${DATA_DIR})…`);
  await until('the site', () => (site.exitCode !== null ? Promise.reject(new Error(`the site did not start:\n${siteLog}`)) : siteLog.includes('PolyIndex is running')), 600_000);
  serverPid = Number(/server pid (\d+)/.exec(siteLog)?.[1]);
  if (!serverPid) throw new Error('the launcher did not name its server');
} catch (error) {
  console.error(`[soak] ${error.message}`);
  await stopSite();
  process.exit(2);
}

// ---------------------------------------------------------------------------------------------
// HTTP with a cookie per client, timed
const records = [];

async function request(family, path, { method = 'GET', body, cookie, headers = {} } = {}) {
  const started = performance.now();
  let status;
  let setCookie = null;
  let text;
  try {
    const response = await fetch(`${BASE}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json', origin: BASE } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    status = response.status;
    setCookie = response.headers.getSetCookie();
    text = await response.text();
  } catch (error) {
    status = 599; // no answer at all: counted with the 5xx
    text = String(error);
  }
  records.push({ family, status, ms: performance.now() - started, at: Date.now() });
  return { status, text, setCookie };
}

const emulatorApi = (path, body) =>
  fetch(`http://${EMULATOR}/identitytoolkit.googleapis.com/v1/${path}?key=demo-api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then((r) => r.json());

/** Signs in through the site (ID token → session cookie); the cookie, or null. */
async function signIn(email, password = PASSWORD) {
  const { idToken } = await emulatorApi('accounts:signInWithPassword', { email, password, returnSecureToken: true });
  const answer = await request('sign-in', '/api/auth/session', { method: 'POST', body: { idToken } });
  const cookie = sessionCookieOf(answer.setCookie ?? []);
  return answer.status === 200 ? cookie : null;
}

async function newAccount(prefix) {
  const email = `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@soak.test`;
  await emulatorApi('accounts:signUp', { email, password: PASSWORD, returnSecureToken: true });
  return email;
}

// ---------------------------------------------------------------------------------------------
// The server's memory, through its inspector (SIGUSR1 opens it on 127.0.0.1:9229)
let inspector;
async function attachInspector() {
  process.kill(serverPid, 'SIGUSR1');
  const targets = await until(
    'the inspector',
    () =>
      fetch(`http://${HOST}:${INSPECTOR_PORT}/json/list`)
        .then((r) => r.json())
        .catch(() => null),
    30_000,
  );
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  let id = 0;
  const pending = new Map();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data));
    if (message.id && pending.has(message.id)) {
      pending.get(message.id)(message);
      pending.delete(message.id);
    }
  });
  const call = (method, params = {}) =>
    new Promise((resolve) => {
      const callId = ++id;
      pending.set(callId, resolve);
      socket.send(JSON.stringify({ id: callId, method, params }));
    });
  inspector = { call, close: () => socket.close() };
}

/** RSS and heap in MiB, after a full garbage collection (so growth means retained memory). */
async function memory() {
  await inspector.call('HeapProfiler.collectGarbage');
  const answer = await inspector.call('Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true });
  const usage = JSON.parse(answer.result.result.value);
  const mib = (bytes) => Math.round((bytes / 1024 / 1024) * 10) / 10;
  return { rss: mib(usage.rss), heapUsed: mib(usage.heapUsed), heapTotal: mib(usage.heapTotal), external: mib(usage.external) };
}

// ---------------------------------------------------------------------------------------------
// The traffic
const pick = (list) => list[Math.floor(Math.random() * list.length)];
const thisYear = new Date().getFullYear();

const READER_PATHS = ['/', '/news', '/terms', '/contact', '/news/2026-11-21-how-to-read-cif-nhava-sheva-landed-cost', '/news/2026-11-10-pvc-outlook-post-diwali', '/rss.xml', '/register'];
const READER_API = ['/api/carousels/', '/api/session', '/api/health'];
const CHART_PAGES = ['/crude/Crude', '/crude/Naphtha', '/indian-bazaar/citywise', '/historical-data/PP', '/graph/PP', '/global-bazaar/USA'];
const CHART_API = [
  '/api/feedstock?name=Crude&country=brent',
  `/api/feedstock?name=Naphtha&country=japan&type=Monthly&year=${thisYear - 1}`,
  '/api/citywise',
  '/api/citywise/mumbai',
  `/api/historicaldata?polymer=ppRaffia&year=${thisYear - 2}`,
];

let premiumCookie;
let adminCookie;
const buyers = [];
/** The fx values the soak's admin has written, by date (its `expected` on the next edit). */
const adminValues = new Map();

const scenarios = [
  {
    name: 'anonymous reader',
    weight: 45,
    async run() {
      const page = pick(READER_PATHS);
      await request(page.startsWith('/news') ? 'page: news' : 'page: public', page);
      await request('api: session and banners', pick(READER_API));
    },
  },
  {
    name: 'signed-in chart user',
    weight: 30,
    async run() {
      await request('page: data', pick(CHART_PAGES), { cookie: premiumCookie });
      await request('api: prices', pick(CHART_API), { cookie: premiumCookie });
      await request('api: prices', pick(CHART_API), { cookie: premiumCookie });
    },
  },
  {
    name: 'sign-in and sign-out',
    weight: 8,
    async run() {
      const email = await newAccount('soak-visitor');
      const cookie = await signIn(email);
      await request('api: session and banners', '/api/session', { cookie });
      await request('page: public', '/', { cookie });
      await request('sign-in', '/api/auth/logout', { method: 'POST', body: {}, cookie });
    },
  },
  {
    name: 'sandbox payment',
    weight: 8,
    async run() {
      const buyer = pick(buyers);
      await request('page: subscription', '/subscription', { cookie: buyer });
      const order = await request('payment', '/api/makePayment', { method: 'POST', body: { plan: pick(['Premium', 'Basic', 'Platinum']) }, cookie: buyer });
      if (order.status !== 200) return;
      const { id } = JSON.parse(order.text);
      // Failed payments keep the buyer a buyer (a paid one would end their shopping).
      await request('payment', '/api/payments/sandbox/complete', { method: 'POST', body: { order_id: id, outcome: 'fail' }, cookie: buyer });
    },
  },
  {
    name: 'admin write',
    weight: 9,
    async run(client) {
      // Each client edits its own days of 2003 (before the demo data), passing the value it
      // last saw as `expected`, as the admin form does; two clients never race for one day.
      const date = `2003-${String(1 + (client % 12)).padStart(2, '0')}-${String(1 + Math.floor(Math.random() * 28)).padStart(2, '0')}`;
      const value = Math.round((45 + Math.random() * 10) * 100) / 100;
      const expected = adminValues.get(date);
      const answer = await request('admin: write', '/api/admin/prices/fx.usdinr/set', { method: 'POST', body: { date, value, ...(expected === undefined ? {} : { expected }) }, cookie: adminCookie });
      if (answer.status === 200) adminValues.set(date, value);
      if (Math.random() < 0.3) await request('admin: page', pick(['/admin', '/admin/audit', '/admin/prices?series=fx.usdinr']), { cookie: adminCookie });
    },
  },
];
const totalWeight = scenarios.reduce((n, s) => n + s.weight, 0);
function chooseScenario() {
  let roll = Math.random() * totalWeight;
  for (const scenario of scenarios) if ((roll -= scenario.weight) < 0) return scenario;
  return scenarios[0];
}

const percentile = (sorted, p) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);

let exitCode;
try {
  premiumCookie = await signIn('premium@polyindex.test');
  adminCookie = await signIn('admin@polyindex.test');
  for (let i = 0; i < Math.max(4, options.concurrency); i++) buyers.push(await signIn(await newAccount('soak-buyer')));
  if (!premiumCookie || !adminCookie || buyers.some((c) => !c)) throw new Error('could not sign the soak users in');
  await attachInspector();
  const atStart = await memory();
  console.log(`[soak] ${options.concurrency} clients for ${options.duration}s (warm-up ${options.warmup}s); server pid ${serverPid}`);

  const started = Date.now();
  const deadline = started + options.duration * 1000;
  /** @typedef {Promise<Awaited<ReturnType<typeof memory>> & { requests: number }> | null} WarmMemory */
  /** @type {WarmMemory} */
  let afterWarmup = null;
  const warmupTimer = setTimeout(() => {
    afterWarmup = memory().then((m) => ({ ...m, requests: records.length }));
  }, options.warmup * 1000);
  const progress = setInterval(() => {
    const fives = records.filter((r) => r.status >= 500).length;
    console.log(`[soak] ${Math.round((Date.now() - started) / 1000)}s: ${records.length} requests, ${fives} × 5xx`);
  }, 30_000);

  const failures = [];
  await Promise.all(
    Array.from({ length: options.concurrency }, async (_, client) => {
      while (Date.now() < deadline) {
        const scenario = chooseScenario();
        await scenario.run(client).catch((error) => failures.push(`${scenario.name}: ${error.message}`));
      }
    }),
  );
  clearInterval(progress);
  clearTimeout(warmupTimer);
  // Set by the timer's callback, which type narrowing does not follow: read it as declared.
  const pendingWarm = /** @type {WarmMemory} */ (afterWarmup);
  const warm = pendingWarm ? await pendingWarm : null;
  const atEnd = await memory();
  const elapsed = (Date.now() - started) / 1000;

  // The report
  const byStatus = new Map();
  for (const r of records) byStatus.set(r.status, (byStatus.get(r.status) ?? 0) + 1);
  const families = [...new Set(records.map((r) => r.family))].sort();
  console.log(`\n[soak] ${records.length} requests in ${elapsed.toFixed(0)} s (${(records.length / elapsed).toFixed(1)}/s), ${options.concurrency} clients`);
  console.log(`[soak] by status: ${[...byStatus].sort(([a], [b]) => a - b).map(([s, n]) => `${s} × ${n}`).join(', ')}`);
  console.log('\n  route family                 requests    p50 ms    p99 ms   non-2xx/3xx');
  for (const family of families) {
    const rows = records.filter((r) => r.family === family);
    const times = rows.map((r) => r.ms).sort((a, b) => a - b);
    const odd = rows.filter((r) => r.status >= 400).length;
    console.log(`  ${family.padEnd(28)} ${String(rows.length).padStart(8)} ${percentile(times, 50).toFixed(1).padStart(9)} ${percentile(times, 99).toFixed(1).padStart(9)} ${String(odd).padStart(13)}`);
  }
  const row = (label, m) => `  ${label.padEnd(14)} RSS ${String(m.rss).padStart(7)} MiB   heap used ${String(m.heapUsed).padStart(7)} MiB   heap total ${String(m.heapTotal).padStart(7)} MiB`;
  console.log('\n  server memory (after a full GC)');
  console.log(row('start', atStart));
  if (warm) console.log(row(`after warm-up`, warm));
  console.log(row('end', atEnd));

  const base = warm ?? atStart;
  const growth = { rss: (atEnd.rss - base.rss) / base.rss, heap: (atEnd.heapUsed - base.heapUsed) / base.heapUsed };
  const fives = records.filter((r) => r.status >= 500).length;
  console.log(`\n[soak] memory growth after warm-up: RSS ${(growth.rss * 100).toFixed(1)} %, heap ${(growth.heap * 100).toFixed(1)} %`);
  if (failures.length > 0) console.log(`[soak] client-side failures: ${failures.length} (first: ${failures[0]})`);
  const met = fives === 0 && growth.rss <= 0.2 && growth.heap <= 0.2 && failures.length === 0;
  console.log(`[soak] aims (0 × 5xx, growth ≤ 20 %): ${met ? 'met' : 'MISSED'}`);
  if (fives > 0) console.log(`[soak] server log tail:\n${serverLines.slice(-20).join('')}`);
  exitCode = met ? 0 : 1;
} catch (error) {
  console.error(`[soak] ${error.stack ?? error.message}`);
  exitCode = 2;
} finally {
  inspector?.close();
  await stopSite();
}
process.exit(exitCode);

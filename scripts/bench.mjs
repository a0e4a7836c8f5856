#!/usr/bin/env node
// `npm run bench`: every row of issue 14's table in one run, each with its aim, measured on
// loopback only against the site as `npm start` runs it (scripts/lib/bench-site.mjs):
//   - gated /api/feedstock (Premium cookie), public /api/carousels/ and a public article (anonymous)
//     beside a bare node:http server answering the same bytes (the ceiling): req/s ratio and p99;
//   - Lighthouse mobile (Debian's Chromium) on /, a public article and one page of each chart
//     family (feedstock, historical, graph, city-wise), signed in as Premium where gated;
//   - the gzipped JavaScript of a public article and of /crude/Naphtha;
//   - GET / p99 while the admin imports a 100,000-row CSV and the forecasts' baselines refresh after
//     it, and how long that refresh takes against the import's own time (issue 23).
// Results go to .cache/bench.json.
//
//   npm run bench                          this tree
//   npm run bench -- --baseline <ref>      also <ref> (built in a worktree under .cache/baseline), side by side
//   npm run bench -- --no-lighthouse       skip Lighthouse (the slow part)
//   npm run bench -- --only feedLatest     only these throughput rows (comma-separated: feedstock,
//                                          carousels, feedLatest, article); no JavaScript, import or Lighthouse rows
//   npm run bench -- --cost [--write-docs] the cost table instead (scripts/lib/bench-cost.mjs)
//
// Env: BENCH_SECONDS (default 6 per row, split into 3 alternating bare/measured rounds), BENCH_CONNECTIONS (default 10), BENCH_PORT
// (default 4599), BENCH_EMULATOR_HOST (default 127.0.0.1:9599; uses the next two ports too).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { measureSite, THROUGHPUT_ROWS } from './lib/bench-site.mjs';

const { values: args } = parseArgs({
  options: {
    baseline: { type: 'string' },
    cost: { type: 'boolean', default: false },
    'write-docs': { type: 'boolean', default: false },
    'no-lighthouse': { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});

if (args.cost) {
  const { runCost } = await import('./lib/bench-cost.mjs');
  await runCost({ writeDocs: args['write-docs'] });
  process.exit(0);
}

const only = args.only ? args.only.split(',').map((row) => row.trim()) : null;
const unknownRow = only?.find((row) => !THROUGHPUT_ROWS.includes(row));
if (unknownRow !== undefined) {
  console.error(`--only: no throughput row ${JSON.stringify(unknownRow)} (rows: ${THROUGHPUT_ROWS.join(', ')})`);
  process.exit(2);
}

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PORT = Number(process.env.BENCH_PORT ?? 4599);
const EMULATOR_HOST = process.env.BENCH_EMULATOR_HOST ?? '127.0.0.1:9599';
const log = (line) => console.log(line);

/** A worktree of `ref` under .cache/baseline (sharing this tree's node_modules); removed after the run. */
function baselineTree(ref) {
  const sha = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { encoding: 'utf8' }).trim();
  const dir = resolve('.cache/baseline', sha.slice(0, 12));
  if (!existsSync(dir)) {
    mkdirSync(resolve('.cache/baseline'), { recursive: true });
    execFileSync('git', ['worktree', 'add', '--detach', dir, sha], { stdio: 'inherit' });
  }
  // The same lockfile shares this tree's node_modules; another gets its own install, since a
  // ref built against dependencies it never had measures nothing (its config may not even load).
  if (!existsSync(resolve(dir, 'node_modules'))) {
    const lock = (root) => readFileSync(resolve(root, 'package-lock.json'), 'utf8');
    if (lock(dir) === lock('.')) symlinkSync(resolve('node_modules'), resolve(dir, 'node_modules'));
    else {
      log(`[bench] ${ref} has another lockfile: npm install in ${dir} (needs the registry)…`);
      execFileSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
    }
  }
  return { dir, sha };
}

const sites = [];
if (args.baseline) {
  const { dir, sha } = baselineTree(args.baseline);
  sites.push({ label: `baseline ${args.baseline} (${sha.slice(0, 8)})`, dir, worktree: true });
}
sites.push({ label: 'this tree', dir: resolve('.') });

// Build each tree first (its own start script would, but a build inside a measurement is noise).
for (const site of sites) {
  log(`[bench] building ${site.label}…`);
  const build = spawnSync(process.execPath, [resolve(site.dir, 'node_modules/astro/bin/astro.mjs'), 'build'], { cwd: site.dir, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' } });
  if (build.status !== 0) process.exit(build.status ?? 1);
  const stamp = await import(resolve(site.dir, 'scripts/lib/build-stamp.mjs'));
  stamp.writeBuildStamp(site.dir);
}

const results = [];
try {
  for (const site of sites) {
    log(`[bench] measuring ${site.label} (${SECONDS} s × ${CONNECTIONS} connections per throughput row)…`);
    results.push(await measureSite({ ...site, port: PORT, emulatorHost: EMULATOR_HOST, seconds: SECONDS, connections: CONNECTIONS, lighthouse: !args['no-lighthouse'] && !only, only, log }));
  }
} finally {
  // The repository's worktree list is shared with every checkout: leave no baseline in it.
  for (const site of sites) if (site.worktree) execFileSync('git', ['worktree', 'remove', '--force', site.dir], { stdio: 'inherit' });
}

// ---- the table: one row per aim, one column per site -------------------------------------
const rows = [
  ['gated /api/feedstock (Premium) vs bare node:http: ratio', (r) => r.rows.feedstock?.ratio, '≥ 0.5', (v) => v >= 0.5],
  ['gated /api/feedstock (Premium): p99 ms', (r) => r.rows.feedstock?.p99, '≤ 20', (v) => v <= 20],
  ['public /api/carousels/ vs bare node:http: ratio', (r) => r.rows.carousels?.ratio, '≥ 0.5', (v) => v >= 0.5],
  ['public article (anonymous) vs bare node:http: ratio', (r) => r.rows.article?.ratio, '≥ 0.5', (v) => v >= 0.5],
  ['public article (anonymous): p99 ms', (r) => r.rows.article?.p99, '≤ 20', (v) => v <= 20],
  ['/api/v1/latest with a key (metered) vs bare node:http: ratio', (r) => r.rows.feedLatest?.ratio, '≥ 0.5', (v) => v >= 0.5],
  ['/api/v1/latest with a key (metered): p99 ms', (r) => r.rows.feedLatest?.p99, '≤ 10', (v) => v <= 10],
  // CPU per request against bare node:http's: the req/s ratio the two would reach each on a core of its own (a busy machine moves it less).
  ['/api/v1/latest with a key (metered) vs bare node:http: CPU-per-request ratio', (r) => r.rows.feedLatest?.cpuRatio, '—', () => true],
  ['  (CPU per request: this server / bare node:http, µs)', (r) => r.rows.feedLatest?.cpuUsPerRequest && `${r.rows.feedLatest.cpuUsPerRequest} / ${r.rows.feedLatest.bareCpuUsPerRequest}`, '—', () => true],
  ...['feedstock', 'historical', 'graph', 'citywise'].flatMap((family) => [
    [`Lighthouse mobile ${family} page: performance`, (r) => r.lighthouse?.[family]?.scores.performance, '≥ 95', (v) => v >= 95],
    [`Lighthouse mobile ${family} page: TBT ms`, (r) => r.lighthouse?.[family] && r.lighthouse[family].metrics.tbtMs, '≤ 150', (v) => v <= 150],
  ]),
  ['Lighthouse mobile /crude/Naphtha: KB transferred', (r) => r.lighthouse?.feedstock && Math.round(r.lighthouse.feedstock.bytes / 1024), '—', () => true],
  ['Lighthouse mobile /: performance', (r) => r.lighthouse?.home?.scores.performance, '≥ 95', (v) => v >= 95],
  ['Lighthouse mobile public article: performance', (r) => r.lighthouse?.article?.scores.performance, '≥ 95', (v) => v >= 95],
  ['JavaScript of a public article, KB gzipped', (r) => r.rows.articleJs?.kb, '≤ 15', (v) => v <= 15],
  ['JavaScript of /crude/Naphtha, KB gzipped', (r) => r.rows.chartJs?.kb, '≤ 150', (v) => v <= 150],
  ['GET / p99 ms during a 100k-row CSV import and the baseline refresh after it', (r) => r.rows.importRead?.p99, '≤ 100', (v) => v <= 100],
  ['  (the import itself, ms)', (r) => r.rows.importRead?.importMs, '—', () => true],
  // Issue 23: the baseline of every series with forecasts refreshes within the import's own time.
  ['baseline refresh after the import, ms (≤ the import\'s ms)', (r) => r.rows.importRead?.refresh?.ms, '≤ import', (v, r) => v <= r.rows.importRead.importMs],
  ['  (series with forecasts refreshed)', (r) => r.rows.importRead?.refresh?.covered, '—', () => true],
];

const width = 80;
const header = `  ${'measure'.padEnd(width)} ${results.map((r) => r.label.padStart(22)).join(' ')} ${'aim'.padStart(7)}  met`;
console.log(`\nIssue 14, one run (${new Date().toISOString()}, load average ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')}):`);
console.log(header);
const table = [];
for (const [name, pick, aim, met] of rows) {
  const values = results.map((r) => pick(r));
  const last = values.at(-1);
  const ok = aim === '—' ? '' : last === undefined || last === null ? 'n/a' : met(last, results.at(-1)) ? 'yes' : 'NO';
  table.push({ measure: name, values: Object.fromEntries(results.map((r, i) => [r.label, values[i] ?? null])), aim, met: ok });
  console.log(`  ${name.padEnd(width)} ${values.map((v) => String(v ?? '—').padStart(22)).join(' ')} ${aim.padStart(7)}  ${ok}`);
}
console.log('\nbare node:http ceilings (req/s):', results.map((r) => `${r.label}: ${THROUGHPUT_ROWS.filter((row) => r.rows[row]).map((row) => `${row} ${r.rows[row].bareRps}`).join(', ')}`).join('; '));
if (results.at(-1).rows.chartJs) console.log('JavaScript of /crude/Naphtha (this tree):', results.at(-1).rows.chartJs.files.map((f) => `${f.file} ${f.kb} KB`).join(', '));

mkdirSync(resolve('.cache'), { recursive: true });
writeFileSync(resolve('.cache/bench.json'), `${JSON.stringify({ at: new Date().toISOString(), seconds: SECONDS, connections: CONNECTIONS, table, results }, null, 2)}\n`);
console.log('\nwritten: .cache/bench.json');

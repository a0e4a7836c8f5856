// `npm run bench -- --cost [--write-docs]`: how cost grows with the data (issue 14), measured
// in-process on SQLite files under .cache/bench-cost, the code the endpoints run:
//   - API latency at 1, 10 and 50 years of daily history of one series: /api/feedstock for the
//     last twelve months (the chart's default; prepared body off, so every call reads, shapes,
//     serialises and hashes), the same answered from the prepared body, and the whole-history
//     CSV export (which should grow with the history; the chart should not);
//   - import time at 10,000, 100,000 and 1,000,000 rows: the admin import's check (in slices)
//     and its one-transaction write (src/lib/admin/priceImport.ts, adminImportPoints), per row,
//     which should stay flat (linear total). The endpoint itself takes at most 200,000 rows per
//     file; 1,000,000 rows measure the pipeline.
// Prints a Markdown table; --write-docs puts it into docs/data.md between the cost-table markers.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { checkImportInSlices } from '../../src/lib/admin/priceImport.ts';
import { addDays, isoDateOf } from '../../src/lib/dates.ts';
import { UNIT_RANGES } from '../../src/lib/priceRanges.ts';
import { allSeries } from '../../src/lib/seriesCatalog.ts';
import { feedstockResponse } from '../../src/server/api/feedstock.ts';
import { exportCsv } from '../../src/server/api/exportCsv.ts';
import { responseOf } from '../../src/server/http/answer.ts';
import { createBodyCache } from '../../src/server/http/bodyCache.ts';
import { openStore, sqliteUrlFor } from '../../src/server/store/index.ts';

const ROOT = resolve('.cache/bench-cost');
const SERIES = 'feedstock.naphtha.japan';
const noHeaders = { get: () => null };

/** `count` weekdays ending on `last`, newest last. */
function weekdays(last, count) {
  const days = [];
  for (let date = last; days.length < count; date = addDays(date, -1)) {
    const day = new Date(`${date}T00:00:00Z`).getUTCDay();
    if (day !== 0 && day !== 6) days.push(date);
  }
  return days.reverse();
}

async function freshStore(name) {
  const dir = resolve(ROOT, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const store = await openStore({ url: sqliteUrlFor(dir) });
  await store.upsertSeries(allSeries);
  return store;
}

/** Median and 95th percentile of `runs` timed calls, in ms. */
async function timed(runs, call) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await call();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(runs / 2)], p95: times[Math.floor(runs * 0.95)] };
}

const ms = (value) => (value < 10 ? value.toFixed(2) : value.toFixed(0));

async function apiLatency(years, today) {
  const store = await freshStore(`history-${years}y`);
  const dates = weekdays(today, years * 261);
  for (let i = 0; i < dates.length; i += 20_000) {
    await store.upsertPoints(dates.slice(i, i + 20_000).map((date, j) => ({ seriesId: SERIES, date, value: 600 + ((i + j) % 97) })));
  }
  const url = new URL('http://bench/api/feedstock?name=Naphtha&country=japan');
  const cold = createBodyCache({ max: 0 });
  const warm = createBodyCache();
  const chart = await timed(200, async () => responseOf(await feedstockResponse(store, { headers: noHeaders }, url, cold)).text());
  const prepared = await timed(2000, async () => responseOf(await feedstockResponse(store, { headers: noHeaders }, url, warm)).text());
  const context = { params: { series: SERIES }, headers: noHeaders, locals: { session: { entitlement: 'full' } }, store: async () => store };
  const csv = await timed(years >= 50 ? 20 : 50, async () => (await exportCsv(context)).text());
  await store.close();
  return { years, points: dates.length, chart, prepared, csv };
}

async function importTime(rows, today) {
  const store = await freshStore(`import-${rows}`);
  const perSeries = Math.ceil(rows / allSeries.length);
  const dates = weekdays(today, perSeries);
  const lines = ['series,date,value'];
  outer: for (const [k, date] of dates.entries()) {
    for (const series of allSeries) {
      const { min, max } = UNIT_RANGES[series.unit];
      lines.push(`${series.id},${date},${(min + ((max - min) * ((k % 50) + 25)) / 100).toFixed(2)}`);
      if (lines.length > rows) break outer;
    }
  }
  const text = `${lines.join('\n')}\n`;
  const start = performance.now();
  // The endpoint's 200,000-row limit per file does not apply to the pipeline measured here.
  const check = await checkImportInSlices(text, today, () => nextTurn(), Number.POSITIVE_INFINITY);
  if (!check.ok) throw new Error(`import check failed: ${JSON.stringify(check.errors?.slice(0, 2))}`);
  const checked = performance.now();
  const result = await store.adminImportPoints({ rows: check.rows, actor: { uid: 'bench', email: null }, now: new Date(), dryRun: false });
  const written = performance.now();
  if (result.changed !== rows) throw new Error(`import wrote ${result.changed} of ${rows} rows`);
  await store.close();
  return { rows, checkMs: checked - start, writeMs: written - checked, totalMs: written - start };
}

export async function runCost({ writeDocs }) {
  const today = isoDateOf(new Date());
  const api = [];
  for (const years of [1, 10, 50]) {
    console.log(`[cost] ${years} year(s) of daily history…`);
    api.push(await apiLatency(years, today));
  }
  const imports = [];
  for (const rows of [10_000, 100_000, 1_000_000]) {
    console.log(`[cost] importing ${rows} rows…`);
    imports.push(await importTime(rows, today));
  }
  rmSync(ROOT, { recursive: true, force: true });

  const when = `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${cpus().length} cores, load average ${loadavg()[0].toFixed(1)}`;
  const table = [
    `Measured by \`npm run bench -- --cost\` (${when}); SQLite file, in-process, median (95th percentile) in ms.`,
    '',
    '| Daily history | Points | `/api/feedstock`, last 12 months, computed | the same, prepared body | CSV export, whole history |',
    '|---|---|---|---|---|',
    ...api.map((a) => `| ${a.years} year${a.years === 1 ? '' : 's'} | ${a.points.toLocaleString('en')} | ${ms(a.chart.median)} (${ms(a.chart.p95)}) | ${ms(a.prepared.median)} (${ms(a.prepared.p95)}) | ${ms(a.csv.median)} (${ms(a.csv.p95)}) |`),
    '',
    '| Import | Check (sliced) ms | Write (one transaction) ms | Total ms | µs per row |',
    '|---|---|---|---|---|',
    ...imports.map((i) => `| ${i.rows.toLocaleString('en')} rows | ${i.checkMs.toFixed(0)} | ${i.writeMs.toFixed(0)} | ${i.totalMs.toFixed(0)} | ${((i.totalMs * 1000) / i.rows).toFixed(1)} |`),
  ].join('\n');
  console.log(`\n${table}\n`);

  if (writeDocs) {
    const path = resolve('docs/data.md');
    const doc = readFileSync(path, 'utf8');
    const begin = '<!-- cost-table:start (npm run bench -- --cost --write-docs) -->';
    const end = '<!-- cost-table:end -->';
    const from = doc.indexOf(begin);
    const to = doc.indexOf(end);
    if (from < 0 || to < from) throw new Error(`docs/data.md has no ${begin} … ${end} block`);
    writeFileSync(path, `${doc.slice(0, from + begin.length)}\n${table}\n${doc.slice(to)}`);
    console.log('written into docs/data.md');
  }
}

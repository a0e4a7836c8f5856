// `npm run bench:forecasts`: what the statistical baseline costs, per series, on the demo prices.
// A micro-benchmark, not a test: it prints numbers and judges nothing (the site's budgets are
// `npm run bench`'s). For every series of the catalog it times one refresh (the ETS fit on the
// last two years and the three horizons' forecasts, src/lib/forecasts/baseline.ts) several
// times and reports the median and the worst, wall clock and CPU; then the whole catalog's
// refresh; then the demo's year of desk calls with their baseline twins, per covered series.
// Runs under plain Node 24 (type stripping): imports carry their .ts extensions.
import { loadavg } from 'node:os';
import { generateDemoData } from '../src/lib/demoData.ts';
import { addDays, isoDateOf } from '../src/lib/dates.ts';
import { BASELINE, baselineForecasts } from '../src/lib/forecasts/baseline.ts';
import { forecastSeriesIds } from '../src/lib/forecasts/coverage.ts';
import { demoDeskForecasts } from '../src/lib/forecasts/demo.ts';
import { allSeries, findSeries } from '../src/lib/seriesCatalog.ts';
import { augursEts } from '../src/server/forecasts/ets.ts';

const runs = Number(process.env['BENCH_RUNS'] ?? 5);
const today = process.env['BENCH_TODAY'] ?? isoDateOf(new Date());
const now = new Date();

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const fmt = (ms: number): string => ms.toFixed(1).padStart(7);

/** Wall-clock and CPU milliseconds of one call. */
function timed(f: () => void): { wall: number; cpu: number } {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  f();
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

const data = generateDemoData({ today });
// The first fit loads the WebAssembly module: once per process, counted apart.
const series0 = allSeries[0]!;
const first = timed(() => baselineForecasts(series0, data.points.get(series0.id)!, augursEts, now));
console.log(`Baseline micro-benchmark, demo prices up to ${today}, ${runs} runs per series (load average ${loadavg()[0]!.toFixed(1)})`);
console.log(`first fit, WebAssembly load included: ${first.wall.toFixed(1)} ms\n`);
console.log(`${'series'.padEnd(36)} ${'points'.padStart(6)} ${'wall med'.padStart(8)} ${'wall max'.padStart(8)} ${'cpu med'.padStart(8)}  method`);

let totalWall = 0;
let totalCpu = 0;
let worst = 0;
const byFrequency = new Map<string, number[]>();
for (const series of allSeries) {
  const points = data.points.get(series.id)!;
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = timed(() => baselineForecasts(series, points, augursEts, now));
    walls.push(t.wall);
    cpus.push(t.cpu);
  }
  const result = baselineForecasts(series, points, augursEts, now)[0];
  const method = result?.by.kind === 'baseline' ? result.by.method : 'none';
  const window = result ? points.filter((p) => p.date > addDays(result.baseDate, -BASELINE.windowDays)).length : 0;
  totalWall += median(walls);
  totalCpu += median(cpus);
  worst = Math.max(worst, ...walls);
  byFrequency.set(series.frequency, [...(byFrequency.get(series.frequency) ?? []), median(cpus)]);
  console.log(`${series.id.padEnd(36)} ${String(window).padStart(6)} ${fmt(median(walls))} ${fmt(Math.max(...walls))} ${fmt(median(cpus))}  ${method}`);
}
console.log(`\nall ${allSeries.length} series, one refresh each (sum of medians): wall ${totalWall.toFixed(0)} ms, CPU ${totalCpu.toFixed(0)} ms; the longest single series: ${worst.toFixed(1)} ms`);
for (const [frequency, cpus] of byFrequency) console.log(`  ${frequency}: ${cpus.length} series, CPU median ${median(cpus).toFixed(1)} ms per series`);

console.log('\nDemo desk calls (a year and a quarter) and their baseline twins, per covered series:');
let demoTotal = 0;
for (const id of forecastSeriesIds) {
  const series = findSeries(id)!;
  const points = data.points.get(id)!;
  let calls = 0;
  let fits = 0;
  const t = timed(() => {
    const desk = demoDeskForecasts({ series, points, today });
    const bases = [...new Set(desk.map((f) => f.baseDate))];
    for (const date of bases) baselineForecasts(series, points, augursEts, now, date);
    calls = desk.length;
    fits = bases.length;
  });
  demoTotal += t.wall;
  console.log(`  ${id.padEnd(34)} ${String(calls).padStart(3)} calls, ${String(fits).padStart(3)} fits: ${fmt(t.wall)} ms wall, ${fmt(t.cpu)} ms CPU`);
}
console.log(`  all ${forecastSeriesIds.length} covered series: ${demoTotal.toFixed(0)} ms wall`);

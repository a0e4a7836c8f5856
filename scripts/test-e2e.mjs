#!/usr/bin/env node
// `npm run test:e2e`: the browser suite on both stores, SQLite then Firestore, each half run to
// its end whatever the other did, then one report of both. Exits non-zero if either half failed
// (or did not run). Extra arguments go to both Playwright runs (`-- tests/e2e/csp.spec.ts`).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';

const HALVES = [
  { name: 'sqlite', env: { E2E_BACKEND: 'sqlite' } },
  { name: 'firestore', env: { E2E_BACKEND: 'firestore' } },
];
const REPORT_DIR = '.cache/e2e-reports';
/** Playwright's CLI; a stand-in only in the runner's own test (tests/integration/test-e2e.test.ts). */
const PLAYWRIGHT = process.env.E2E_PLAYWRIGHT_CLI ?? join('node_modules', '.bin', 'playwright');
const args = process.argv.slice(2);
// The project's Node 24 and tools for Playwright and its web server, whoever started us.
const PATH = `${resolve('node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`;

/** Counts from Playwright's JSON report, or null when it wrote none (it did not get that far). */
function countsOf(file) {
  if (!existsSync(file)) return null;
  try {
    const { stats } = JSON.parse(readFileSync(file, 'utf8'));
    return { passed: stats.expected, failed: stats.unexpected, flaky: stats.flaky, skipped: stats.skipped };
  } catch {
    return null;
  }
}

function runHalf(half) {
  const report = join(REPORT_DIR, `${half.name}.json`);
  rmSync(report, { force: true });
  console.log(`\n[e2e] ${half.name}: playwright test ${args.join(' ')}`.trimEnd());
  return new Promise((done) => {
    // Chosen specs may all be SQLite-only: then the Firestore half has none, which is no failure.
    // A full run (no arguments) must find tests in both halves.
    const choose = args.length > 0 ? ['--pass-with-no-tests', ...args] : [];
    const child = spawn(PLAYWRIGHT, ['test', '--reporter=list,json', ...choose], {
      stdio: 'inherit',
      env: { ...process.env, PATH, ...half.env, PLAYWRIGHT_JSON_OUTPUT_FILE: report, PLAYWRIGHT_JSON_OUTPUT_NAME: report },
    });
    child.once('error', (error) => done({ half, status: 127, counts: null, error: error.message }));
    child.once('exit', (code, signal) => done({ half, status: code ?? 1, signal, counts: countsOf(report) }));
  });
}

mkdirSync(REPORT_DIR, { recursive: true });
const results = [];
for (const half of HALVES) results.push(await runHalf(half));

console.log('\n[e2e] both halves:');
let passed = 0;
let failed = 0;
for (const { half, status, signal, counts, error } of results) {
  const how = signal ? `killed by ${signal}` : `exit ${status}`;
  const line = counts
    ? `${counts.passed} passed, ${counts.failed} failed, ${counts.flaky} flaky, ${counts.skipped} skipped`
    : `no report (${error ?? 'Playwright stopped before it wrote one'})`;
  console.log(`[e2e]   ${half.name.padEnd(9)} ${status === 0 ? 'ok    ' : 'FAILED'} ${line} (${how})`);
  passed += counts?.passed ?? 0;
  failed += counts ? counts.failed + counts.flaky : 0;
  // A half that failed without naming a failed test (server did not start, crash) counts once.
  if (status !== 0 && (!counts || counts.failed + counts.flaky === 0)) failed += 1;
}
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(results.every((r) => r.status === 0) ? 0 : 1);

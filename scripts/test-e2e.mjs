#!/usr/bin/env node
// `npm run test:e2e`: the browser suite, one Playwright run serving both sites (SQLite and
// Firestore) from one build (playwright.config.ts), then one report per site: passed, failed,
// flaky and skipped, and which Firestore ran. Exits non-zero if any test failed, if Playwright
// failed, or if a full run (no arguments) found no tests for a site. Extra arguments go to
// Playwright (`-- tests/e2e/csp.spec.ts`, `-- --project firestore`); chosen spec files that
// only the SQLite site runs start only that site.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { FIRESTORE_SPEC_NAMES, PROJECTS_OF as SITES } from '../tests/e2e/sites.ts';
import { testChromium } from './lib/chromium.mjs';
import { findFirestoreEmulator, isFirestoreEmulator } from './lib/firestore-emulator.mjs';
import { E2E_REPORT as REPORT, E2E_SUMMARY } from './lib/test-reports.mjs';

/** Playwright's CLI; a stand-in only in the runner's own test (tests/integration/test-e2e.test.ts). */
const PLAYWRIGHT = process.env.E2E_PLAYWRIGHT_CLI ?? join('node_modules', '.bin', 'playwright');

const args = process.argv.slice(2);
// The project's Node 24 and tools for Playwright and its web servers, whoever started us.
const PATH = `${resolve('node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`;

/** Spec files named on the command line, if every argument that looks like one is one. */
const specArgs = args.filter((arg) => /\.spec\.ts(:\d+)*$/.test(arg));
const sqliteOnly = specArgs.length > 0 && specArgs.every((arg) => !FIRESTORE_SPEC_NAMES.includes(arg.replace(/(:\d+)+$/, '').split('/').pop().replace(/\.spec\.ts$/, '')));
const sites = process.env.E2E_SITES ?? (sqliteOnly ? 'sqlite' : 'sqlite,firestore');

/** Which Firestore the Firestore site gets (said before the run, so a hang still shows it). */
async function firestoreLabel() {
  if (!sites.includes('firestore')) return 'not served (only SQLite specs chosen)';
  const given = process.env.FIRESTORE_EMULATOR_HOST?.trim();
  if (given) return (await isFirestoreEmulator(given, 10_000)) ? `Google's Firestore emulator at ${given} (given; its demo project is emptied first)` : `FIRESTORE_EMULATOR_HOST=${given}, which is not Google's emulator`;
  const found = findFirestoreEmulator();
  return found.script ? `Google's Firestore emulator, started by the Firestore site's npm start (${found.script})` : `the in-memory stand-in, started by the Firestore site's npm start (${found.reason})`;
}

/** Per site: passed, failed, flaky, skipped, from Playwright's JSON report (null: no report). */
function countsOf(file) {
  if (!existsSync(file)) return null;
  let report;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
  const counts = Object.fromEntries(Object.keys(SITES).map((site) => [site, { passed: 0, failed: 0, flaky: 0, skipped: 0 }]));
  const failures = [];
  const siteOf = (project) => Object.keys(SITES).find((site) => SITES[site].includes(project));
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const site = siteOf(test.projectName);
        if (!site) continue;
        const kind = { expected: 'passed', unexpected: 'failed', flaky: 'flaky', skipped: 'skipped' }[test.status] ?? 'failed';
        counts[site][kind] += 1;
        if (kind === 'failed' || kind === 'flaky') failures.push(`${kind}: [${test.projectName}] ${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}: ${firstErrorLine(test)}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, child.file === child.title ? titles : [...titles, child.title]);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  return { counts, failures };
}

/** The first line of a failed test's first error, so the summary says why without the log. */
function firstErrorLine(test) {
  const error = (test.results ?? []).flatMap((r) => r.errors ?? (r.error ? [r.error] : []))[0];
  // eslint-disable-next-line no-control-regex -- Playwright's messages carry terminal colours
  return (error?.message ?? 'no error recorded').replace(/\u001b\[[0-9;]*m/g, '').split('\n')[0].slice(0, 200);
}

mkdirSync(dirname(REPORT), { recursive: true });
rmSync(REPORT, { force: true });
rmSync(E2E_SUMMARY, { force: true });
const firestore = await firestoreLabel();
console.log(`\n[e2e] sites: ${sites}; Firestore: ${firestore}; browser: ${testChromium()}`);
console.log(`[e2e] playwright test ${args.join(' ')}`.trimEnd());
const started = Date.now();
const result = await new Promise((done) => {
  // Chosen specs may leave a site with none, which is no failure; a full run must find tests on both.
  const choose = args.length > 0 ? ['--pass-with-no-tests', ...args] : [];
  const child = spawn(PLAYWRIGHT, ['test', '--reporter=list,json', ...choose], {
    stdio: 'inherit',
    env: { ...process.env, PATH, E2E_SITES: sites, PLAYWRIGHT_JSON_OUTPUT_FILE: REPORT, PLAYWRIGHT_JSON_OUTPUT_NAME: REPORT },
  });
  child.once('error', (error) => done({ status: 127, signal: null, error: error.message }));
  child.once('exit', (code, signal) => done({ status: code ?? 1, signal, error: null }));
});
const seconds = Math.round((Date.now() - started) / 1000);
const { counts = null, failures = [] } = countsOf(REPORT) ?? {};

console.log(`\n[e2e] one run, ${seconds} s; Firestore: ${firestore}`);
let failed = 0;
const problems = [];
if (result.status !== 0) problems.push(result.error ?? (result.signal ? `Playwright was killed by ${result.signal}` : `Playwright exited ${result.status}`));
if (!counts) problems.push(`no report (${result.error ?? 'Playwright stopped before it wrote one'})`);
for (const site of Object.keys(SITES)) {
  const c = counts?.[site];
  const line = c ? `${c.passed} passed, ${c.failed} failed, ${c.flaky} flaky, ${c.skipped} skipped` : 'no report';
  const served = sites.split(',').includes(site);
  const empty = c && c.passed + c.failed + c.flaky + c.skipped === 0;
  const bad = c ? c.failed + c.flaky > 0 || (served && args.length === 0 && empty) : true;
  if (served && args.length === 0 && empty) problems.push(`no tests ran on ${site}`);
  console.log(`[e2e]   ${site.padEnd(9)} ${bad ? 'FAILED' : 'ok    '} ${served ? line : 'not served'} (${SITES[site].join(', ')})`);
  failed += c ? c.failed + c.flaky : 0;
}
const total = (kind) => Object.values(counts ?? {}).reduce((sum, c) => sum + c[kind], 0);
// A run that failed without naming a failed test (a server did not start, a crash) counts once.
if (problems.length > 0 && failed === 0) failed = 1;
for (const problem of problems) console.log(`[e2e]   ${problem}`);
console.log(`e2e: ${total('passed')} passed, ${failed} failed, ${total('skipped')} skipped`);
for (const failure of failures) console.log(`[e2e]   ${failure}`);
writeFileSync(E2E_SUMMARY, JSON.stringify({ seconds, firestore, sites, counts, failures, failed, problems }, null, 2));
process.exit(problems.length === 0 && failed === 0 ? 0 : 1);

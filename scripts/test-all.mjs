#!/usr/bin/env node
// `npm test`: every stage — types and lint, Vitest, then the browser suite on both stores — run
// to its end whatever an earlier stage did, then one report of all of them: each stage's time
// (and the CPU time it used, which a busy machine does not inflate), its counts (passed,
// failed, skipped) and which Firestore ran. Exits non-zero if any stage failed, so `.ci/run`
// can call exactly `npm install && npm test` and still see everything.
//
// First `astro sync`, alone. Then three stages side by side: `check`; Vitest's `integration`
// project (one file at a time, much of it waiting on real timeouts and the Auth emulator) as
// `test:integration`, with a data directory of its own; and every other Vitest project as
// `test:unit`. Each of the three syncs too (as when run alone), which then writes nothing: on a
// fresh clone, syncs that write at once share one temporary file and can fail each other. The
// browser suite runs after all three. The output of `check` and `test:integration` is held and shown when
// each ends, so that only one stage streams.
//
// The Firestore of the run: FIRESTORE_EMULATOR_HOST when given; otherwise Google's emulator
// (the Debian package google-cloud-cli-firestore-emulator), started here once on a free
// loopback port for Vitest and the browser suite and stopped at the end; where it is missing,
// each stage starts the in-memory stand-in and the tests that need the real one are skipped.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { findFirestoreEmulator, isFirestoreEmulator, startFirestoreEmulator } from './lib/firestore-emulator.mjs';
import { E2E_SUMMARY, VITEST_INTEGRATION_REPORT, VITEST_REPORT } from './lib/test-reports.mjs';

/** Stages in phases: the stages of a phase run side by side, a phase after the one before it. */
const PHASES = [['sync'], ['check', 'test:integration', 'test:unit'], ['test:e2e']];
/** Whose output is held until it ends (the others stream). */
const HELD = new Set(['check', 'test:integration']);
/** Each Vitest stage's JSON report. */
const VITEST_REPORTS = { 'test:unit': VITEST_REPORT, 'test:integration': VITEST_INTEGRATION_REPORT };
const vitestReporters = (file) => ['--reporter=default', '--reporter=json', `--outputFile.json=${file}`];
/** Arguments each stage gets after `npm run <stage> --`. */
const STAGE_ARGS = {
  // Every project but `integration`, which runs beside it as test:integration.
  'test:unit': ['--project=!integration', ...vitestReporters(VITEST_REPORT)],
  'test:integration': vitestReporters(VITEST_INTEGRATION_REPORT),
};
/** The stages that get the run's Firestore. */
const FIRESTORE_STAGES = new Set(['test:integration', 'test:unit', 'test:e2e']);
/** Environment of a stage beyond the run's Firestore: the integration run's own data directory. */
const STAGE_ENV = { 'test:integration': { TEST_DATA_DIR: join('.cache', 'vitest-integration-data') } };
// TEST_ALL_NPM: the command run as `npm` (tests/integration/test-all.test.ts gives a stand-in).
const npm = process.env.TEST_ALL_NPM ?? (process.platform === 'win32' ? 'npm.cmd' : 'npm');
const runStarted = Date.now();
const secondsSince = (start) => Math.round((Date.now() - start) / 1000);

/** @type {Set<import('node:child_process').ChildProcess>} */
const running = new Set();
/** @type {(() => Promise<void>) | null} */
let stopFirestore = null;

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, async () => {
    console.log(`\n[test] ${signal}: stopping`);
    for (const child of running) child.kill(signal);
    await stopFirestore?.();
    process.exit(128 + ({ SIGINT: 2, SIGTERM: 15, SIGHUP: 1 }[signal] ?? 0));
  });
}

/** The run's Firestore: `env` for the stages that use it, and a line for the report. */
async function firestoreForRun() {
  const given = process.env.FIRESTORE_EMULATOR_HOST?.trim();
  if (given) {
    const real = await isFirestoreEmulator(given, 10_000);
    return { env: {}, label: real ? `Google's Firestore emulator at ${given} (given)` : `the Firestore at ${given} (given; not Google's emulator)` };
  }
  const found = findFirestoreEmulator();
  if (!found.script) return { env: {}, label: `the in-memory stand-in in each stage (${found.reason}): tests that need the real emulator are skipped` };
  const started = Date.now();
  try {
    const emulator = await startFirestoreEmulator({ script: found.script });
    stopFirestore = () => emulator.stop();
    return { env: { FIRESTORE_EMULATOR_HOST: emulator.host }, label: `Google's Firestore emulator on ${emulator.host}, started once for this run in ${secondsSince(started)} s (${found.script})` };
  } catch (error) {
    // Each stage then tries on its own, and says what it got.
    return { env: {}, label: `Google's emulator did not start here (${error instanceof Error ? error.message.split('\n')[0] : error}); each stage starts its own Firestore` };
  }
}

/**
 * CPU seconds used so far by the children this process has waited for, with theirs (Linux
 * /proc; null elsewhere). The difference across a phase is that phase's CPU time.
 */
function childCpuSeconds() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // cutime and cstime are fields 16 and 17, in clock ticks (100 a second on Linux); after the
    // comm (field 2, which may hold spaces) field n is at index n - 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

function run(stage, env) {
  const args = ['run', stage, ...(STAGE_ARGS[stage] ? ['--', ...STAGE_ARGS[stage]] : [])];
  const held = HELD.has(stage);
  console.log(`\n[test] npm ${args.join(' ')}${held ? ' (its output follows when it ends)' : ''}`);
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(npm, args, { stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...env } });
    running.add(child);
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    const finish = (result) => {
      running.delete(child);
      if (held) process.stdout.write(`\n[test] ${stage}: its output\n${output}${output.endsWith('\n') || !output ? '' : '\n'}[test] ${stage}: end of its output\n`);
      done(result);
    };
    child.once('error', (error) => finish({ stage, status: 127, seconds: 0, error: error.message }));
    child.once('exit', (code, signal) => finish({ stage, status: code ?? 1, signal, seconds: secondsSince(started) }));
  });
}

const readJson = (file) => {
  try {
    return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
  } catch {
    return null;
  }
};

// eslint-disable-next-line no-control-regex -- test messages carry terminal colours
const firstLine = (message) => (message || 'no message').replace(/\u001b\[[0-9;]*m/g, '').split('\n').find((line) => line.trim())?.trim().slice(0, 200) ?? 'no message';

/** What a stage's report says: counts, skipped tests by name, and the e2e run's Firestore. */
function detailsOf(stage) {
  if (VITEST_REPORTS[stage]) {
    const report = readJson(VITEST_REPORTS[stage]);
    if (!report) return [];
    const skipped = report.testResults.flatMap((file) => file.assertionResults.filter((t) => t.status === 'skipped' || t.status === 'pending' || t.status === 'todo').map((t) => `${file.name.replace(`${process.cwd()}/`, '')}: ${t.fullName ?? t.title}`));
    const failedTests = report.testResults.flatMap((file) => file.assertionResults.filter((t) => t.status === 'failed').map((t) => `${file.name.replace(`${process.cwd()}/`, '')}: ${t.fullName ?? t.title}: ${firstLine(t.failureMessages?.[0])}`));
    // A file that failed outside its tests (an import, a hook) has a message of its own.
    const failedFiles = report.testResults.filter((file) => file.status === 'failed' && file.assertionResults.every((t) => t.status !== 'failed')).map((file) => `${file.name.replace(`${process.cwd()}/`, '')}: ${firstLine(file.message)}`);
    return [`${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests + report.numTodoTests} skipped in ${report.testResults.length} files`, ...skipped.map((name) => `skipped: ${name}`), ...[...failedTests, ...failedFiles].map((name) => `failed: ${name}`)];
  }
  if (stage === 'test:e2e') {
    const summary = readJson(E2E_SUMMARY);
    if (!summary?.counts) return [];
    return [...Object.entries(summary.counts).map(([site, c]) => `${site}: ${c.passed} passed, ${c.failed} failed, ${c.flaky} flaky, ${c.skipped} skipped`), ...(summary.failures ?? [])];
  }
  return [];
}

for (const file of [...Object.values(VITEST_REPORTS), E2E_SUMMARY]) {
  mkdirSync(dirname(file), { recursive: true });
  rmSync(file, { force: true });
}
const firestore = await firestoreForRun();
console.log(`[test] Firestore: ${firestore.label}; ${availableParallelism()} cores`);
const results = [];
for (const phase of PHASES) {
  const cpuBefore = childCpuSeconds();
  const done = await Promise.all(phase.map((stage) => run(stage, { ...(FIRESTORE_STAGES.has(stage) ? firestore.env : {}), ...STAGE_ENV[stage] })));
  const cpuAfter = childCpuSeconds();
  const cpu = cpuBefore === null || cpuAfter === null ? null : Math.round(cpuAfter - cpuBefore);
  for (const result of done) results.push({ ...result, cpu, phase: phase.join(' + ') });
}
await stopFirestore?.();

console.log('\n[test] every stage:');
for (const { stage, status, signal, seconds, error } of results) {
  const how = error ?? (signal ? `killed by ${signal}` : `exit ${status}`);
  const [first = '', ...more] = detailsOf(stage);
  console.log(`[test]   ${stage.padEnd(16)} ${status === 0 ? 'ok    ' : 'FAILED'} (${how}, ${seconds} s) ${first}`.trimEnd());
  for (const line of more) console.log(`[test]   ${''.padEnd(16)} ${line}`);
}
// CPU time of what each phase's processes and their waited-for children used: what an idle
// machine would need, spread over its cores; a process killed with its parent is not counted.
for (const phase of new Set(results.map((r) => r.phase))) {
  const { cpu } = results.find((r) => r.phase === phase);
  if (cpu !== null) console.log(`[test]   CPU time of ${phase}: ${cpu} s`);
}
console.log(`[test] Firestore: ${firestore.label}`);
const total = secondsSince(runStarted);
console.log(`[test] ${Math.floor(total / 60)} min ${total % 60} s in all`);
const failed = results.filter((r) => r.status !== 0).map((r) => r.stage);
console.log(failed.length === 0 ? '[test] every stage passed' : `[test] failed: ${failed.join(', ')}`);
process.exit(failed.length === 0 ? 0 : 1);

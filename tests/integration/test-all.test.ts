/**
 * `npm test` (scripts/test-all.mjs) runs every stage (astro sync alone; then check, Vitest's
 * integration project and the rest of Vitest side by side; then the browser suite), each to its end whatever another
 * did, reports each with its time and counts, and exits non-zero when any failed: what
 * `.ci/run` relies on (issue 15, finding 7). It starts Google's Firestore emulator once for the
 * run where the package is installed and gives it to the stages that use it. npm is replaced by
 * a stand-in (TEST_ALL_NPM) that logs when each stage starts and ends (the first three end only
 * after all three started, or 10 s), what Firestore and data directory it was given, writes the
 * report a real stage would, and leaves as the test says.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isFirestoreEmulator } from '../../scripts/lib/firestore-emulator.mjs';

const dir = mkdtempSync(join(tmpdir(), 'polyindex-test-all-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const log = join(dir, 'calls.log');
const reports = join(dir, 'reports');

type Outcome = { exit: number } | { signal: 'SIGKILL' | 'SIGTERM' };

/** What the stand-in's test:unit and test:e2e write where the real ones write their reports. */
const VITEST_REPORT = {
  numPassedTests: 2480,
  numFailedTests: 1,
  numPendingTests: 1,
  numTodoTests: 0,
  testResults: [
    { name: join(process.cwd(), 'tests/unit/dates.test.ts'), assertionResults: [{ status: 'passed', title: 'a' }] },
    { name: join(process.cwd(), 'tests/contract/users.contract.test.ts'), assertionResults: [{ status: 'passed', title: 'a' }, { status: 'skipped', title: 'b', fullName: 'users on firestore concurrent merges' }] },
  ],
};
const VITEST_INTEGRATION_REPORT = {
  numPassedTests: 310,
  numFailedTests: 0,
  numPendingTests: 0,
  numTodoTests: 0,
  testResults: [{ name: join(process.cwd(), 'tests/integration/feed.test.ts'), assertionResults: [{ status: 'passed', title: 'a' }] }],
};
const E2E_SUMMARY = { counts: { sqlite: { passed: 200, failed: 0, flaky: 0, skipped: 2 }, firestore: { passed: 90, failed: 1, flaky: 0, skipped: 0 } } };

/**
 * An npm stand-in: `npm run <stage>` logs its start (and the FIRESTORE_EMULATOR_HOST it got,
 * with whether Google's emulator answers there), writes its report, does some asynchronous
 * work, logs its end, then leaves as told.
 */
function standIn(outcomes: Record<string, Outcome>): string {
  const file = join(dir, `npm-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(
    file,
    `#!${process.execPath}
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { setImmediate as turn } from 'node:timers/promises';
const outcomes = ${JSON.stringify(outcomes)};
const [verb, stage] = process.argv.slice(2);
appendFileSync(${JSON.stringify(log)}, 'start ' + verb + ' ' + stage + '\\n');
if (process.env.TEST_DATA_DIR) appendFileSync(${JSON.stringify(log)}, 'data ' + stage + ' ' + process.env.TEST_DATA_DIR + ' ' + process.argv.slice(4).filter((a) => a.startsWith('--project')).join(' ') + '\\n');
else appendFileSync(${JSON.stringify(log)}, 'data ' + stage + ' - ' + process.argv.slice(4).filter((a) => a.startsWith('--project')).join(' ') + '\\n');
console.log('output of ' + stage);
const host = process.env.FIRESTORE_EMULATOR_HOST;
if (host) {
  const answer = await fetch('http://' + host + '/').then((r) => r.text(), () => 'nothing');
  appendFileSync(${JSON.stringify(log)}, 'firestore ' + stage + ' ' + host + ' ' + answer.trim() + '\\n');
}
mkdirSync(${JSON.stringify(reports)}, { recursive: true });
if (stage === 'test:unit') writeFileSync(${JSON.stringify(join(reports, 'vitest.json'))}, ${JSON.stringify(JSON.stringify(VITEST_REPORT))});
if (stage === 'test:integration') writeFileSync(${JSON.stringify(join(reports, 'vitest-integration.json'))}, ${JSON.stringify(JSON.stringify(VITEST_INTEGRATION_REPORT))});
if (stage === 'test:e2e') writeFileSync(${JSON.stringify(join(reports, 'e2e-summary.json'))}, ${JSON.stringify(JSON.stringify(E2E_SUMMARY))});
for (let i = 0; i < 50; i++) await turn();
// The first phase's stages end only once all three have started (up to 10 s): side by side, all start first.
const sideBySide = ['check', 'test:integration', 'test:unit'];
for (let waited = 0; sideBySide.includes(stage) && waited < 10_000; waited += 20) {
  const started = readFileSync(${JSON.stringify(log)}, 'utf8');
  if (sideBySide.every((s) => started.includes('start run ' + s + '\\n'))) break;
  await new Promise((done) => setTimeout(done, 20));
}
appendFileSync(${JSON.stringify(log)}, 'end ' + stage + '\\n');
const o = outcomes[stage] ?? { exit: 0 };
if ('signal' in o) process.kill(process.pid, o.signal);
else process.exit(o.exit);
`,
  );
  chmodSync(file, 0o755);
  return file;
}

/** Runs test-all.mjs; by default as on a machine without the emulator package (nothing to start). */
async function testAll(npm: string, env: Record<string, string> = { FIRESTORE_EMULATOR_SCRIPT: 'none' }) {
  rmSync(log, { force: true });
  rmSync(reports, { recursive: true, force: true });
  const childEnv: NodeJS.ProcessEnv = { ...process.env, TEST_ALL_NPM: npm, TEST_REPORT_DIR: reports, ...env };
  if (!('FIRESTORE_EMULATOR_HOST' in env)) delete childEnv['FIRESTORE_EMULATOR_HOST'];
  delete childEnv['TEST_DATA_DIR'];
  const child = spawn(process.execPath, ['scripts/test-all.mjs'], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const status = await new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  let lines: string[] = [];
  try {
    lines = readFileSync(log, 'utf8').trim().split('\n');
  } catch {
    // No stage ran.
  }
  return {
    status,
    out,
    calls: lines.filter((l) => !l.startsWith('firestore ') && !l.startsWith('data ')),
    firestore: lines.filter((l) => l.startsWith('firestore ')),
    data: lines.filter((l) => l.startsWith('data ')),
  };
}

/** sync alone; then check, test:integration and test:unit side by side (each to its end); then test:e2e. */
function expectEveryStageInTurn(calls: string[]): void {
  expect(calls).toHaveLength(10);
  expect(calls.slice(0, 2)).toEqual(['start run sync', 'end sync']);
  expect(new Set(calls.slice(2, 8))).toEqual(new Set(['start run check', 'start run test:integration', 'start run test:unit', 'end check', 'end test:integration', 'end test:unit']));
  // All three start before any ends: they run side by side.
  expect(calls.slice(2, 5).every((call) => call.startsWith('start'))).toBe(true);
  expect(calls.slice(8)).toEqual(['start run test:e2e', 'end test:e2e']);
}

describe('npm test', () => {
  it('runs every stage when check fails, each to its end, reports each, and fails', async () => {
    const { status, out, calls } = await testAll(standIn({ check: { exit: 2 } }));
    expectEveryStageInTurn(calls);
    expect(out).toMatch(/check +FAILED \(exit 2, \d+ s\)/);
    expect(out).toMatch(/test:unit +ok +\(exit 0, \d+ s\)/);
    expect(out).toMatch(/test:e2e +ok +\(exit 0, \d+ s\)/);
    expect(out).toContain('[test] failed: check');
    expect(status).toBe(1);
  });

  it('fails when only the last stage fails, and when a stage is killed by a signal', async () => {
    const last = await testAll(standIn({ 'test:e2e': { exit: 1 } }));
    expectEveryStageInTurn(last.calls);
    expect(last.out).toContain('[test] failed: test:e2e');
    expect(last.status).toBe(1);

    const killed = await testAll(standIn({ 'test:unit': { signal: 'SIGKILL' } }));
    expectEveryStageInTurn(killed.calls);
    expect(killed.out).toMatch(/test:unit +FAILED \(killed by SIGKILL,/);
    expect(killed.out).toContain('[test] failed: test:unit');
    expect(killed.status).toBe(1);
  });

  it('names every failed stage', async () => {
    const { status, out, calls } = await testAll(standIn({ check: { exit: 1 }, 'test:integration': { exit: 1 }, 'test:unit': { exit: 1 }, 'test:e2e': { signal: 'SIGTERM' } }));
    expectEveryStageInTurn(calls);
    expect(out).toContain('[test] failed: check, test:integration, test:unit, test:e2e');
    expect(status).toBe(1);
  });

  it('a missing npm fails every stage, never passes', async () => {
    const { status, out, calls } = await testAll(join(dir, 'no-such-npm'));
    expect(calls).toEqual([]);
    for (const stage of ['sync', 'check', 'test:integration', 'test:unit', 'test:e2e']) expect(out).toMatch(new RegExp(`${stage} +FAILED \\(spawn .*ENOENT`));
    expect(status).toBe(1);
  });

  it('passes when every stage passes, and its summary gives each stage its counts, the skipped tests by name, the Firestore and the whole time', async () => {
    const { status, out, calls, data } = await testAll(standIn({}));
    expectEveryStageInTurn(calls);
    expect(out).toMatch(/test:unit +ok +\(exit 0, \d+ s\) 2480 passed, 1 failed, 1 skipped in 2 files/);
    expect(out).toMatch(/test:integration +ok +\(exit 0, \d+ s\) 310 passed, 0 failed, 0 skipped in 1 files/);
    // Vitest's integration project runs on its own, with a data directory of its own; the rest without it.
    expect([...data].sort()).toEqual(['data check - ', 'data sync - ', 'data test:e2e - ', 'data test:integration .cache/vitest-integration-data ', 'data test:unit - --project=!integration']);
    expect(out).toMatch(/\[test\] {3}CPU time of sync: \d+ s/);
    expect(out).toMatch(/\[test\] {3}CPU time of check \+ test:integration \+ test:unit: \d+ s/);
    expect(out).toMatch(/\[test\] {3}CPU time of test:e2e: \d+ s/);
    // check's output is held while Vitest streams, and shown whole when check ends.
    expect(out).toContain('[test] check: its output\noutput of check\n[test] check: end of its output');
    expect(out).toContain('skipped: tests/contract/users.contract.test.ts: users on firestore concurrent merges');
    expect(out).toMatch(/test:e2e +ok +\(exit 0, \d+ s\) sqlite: 200 passed, 0 failed, 0 flaky, 2 skipped/);
    expect(out).toContain('firestore: 90 passed, 1 failed, 0 flaky, 0 skipped');
    expect(out).toContain('[test] Firestore: the in-memory stand-in in each stage (FIRESTORE_EMULATOR_SCRIPT=none)');
    expect(out).toMatch(/\[test\] \d+ min \d+ s in all/);
    expect(out).toContain('[test] every stage passed');
    expect(status).toBe(0);
  });

  it('passes a given FIRESTORE_EMULATOR_HOST on to Vitest and the browser stage, and starts none', async () => {
    const { firestore, out } = await testAll(standIn({}), { FIRESTORE_EMULATOR_HOST: '127.0.0.1:1' });
    // The first three run side by side: any may start first.
    expect([...firestore].sort()).toEqual(['firestore check 127.0.0.1:1 nothing', 'firestore sync 127.0.0.1:1 nothing', 'firestore test:e2e 127.0.0.1:1 nothing', 'firestore test:integration 127.0.0.1:1 nothing', 'firestore test:unit 127.0.0.1:1 nothing']);
    expect(out).toContain("[test] Firestore: the Firestore at 127.0.0.1:1 (given; not Google's emulator)");
  });

  it("starts the Firestore emulator once for the run, gives it to Vitest and the browser stage, and stops it at the end", { timeout: 120_000 }, async () => {
    // An emulator script of our own that answers as Google's does ("Ok" at its root), so the
    // plumbing is tested without a JVM (tests/integration/firestore-emulator.test.ts starts the real one).
    const script = join(dir, 'cloud_firestore_emulator');
    writeFileSync(
      script,
      `#!${process.execPath}
const port = Number(process.argv.find((a) => a.startsWith('--port=')).slice(7));
require('node:http').createServer((_, response) => response.end('Ok\\n')).listen(port, '127.0.0.1');
`,
    );
    chmodSync(script, 0o755);
    const { firestore, out, status } = await testAll(standIn({}), { FIRESTORE_EMULATOR_SCRIPT: script, JAVA: process.execPath });
    expect(status, out).toBe(0);
    const host = /^firestore test:unit (\S+) Ok$/.exec(firestore.find((line) => line.startsWith('firestore test:unit ')) ?? '')?.[1];
    expect(host, out).toBeTruthy();
    // Vitest's two runs side by side (either first), then the browser suite; check gets none.
    expect(firestore.slice(0, 2).sort()).toEqual([`firestore test:integration ${host} Ok`, `firestore test:unit ${host} Ok`]);
    expect(firestore.slice(2)).toEqual([`firestore test:e2e ${host} Ok`]);
    expect(out).toContain(`[test] Firestore: Google's Firestore emulator on ${host}, started once for this run`);
    expect(await isFirestoreEmulator(host!)).toBe(false);
  });
});

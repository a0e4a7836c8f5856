/**
 * `npm test` (scripts/test-all.mjs) runs every stage (check, Vitest, the browser suite) one after
 * another, each to its end whatever an earlier one did, reports each, and exits non-zero when any
 * failed: what `.ci/run` relies on (issue 15, finding 7). npm is replaced by a stand-in
 * (TEST_ALL_NPM) that logs when each stage starts and ends and leaves as the test says.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'polyindex-test-all-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const log = join(dir, 'calls.log');

type Outcome = { exit: number } | { signal: 'SIGKILL' | 'SIGTERM' };

/** An npm stand-in: `npm run <stage>` logs its start, does some asynchronous work, logs its end, then leaves as told. */
function standIn(outcomes: Record<string, Outcome>): string {
  const file = join(dir, `npm-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(
    file,
    `#!${process.execPath}
import { appendFileSync } from 'node:fs';
import { setImmediate as turn } from 'node:timers/promises';
const outcomes = ${JSON.stringify(outcomes)};
const [verb, stage] = process.argv.slice(2);
appendFileSync(${JSON.stringify(log)}, 'start ' + verb + ' ' + stage + '\\n');
for (let i = 0; i < 50; i++) await turn();
appendFileSync(${JSON.stringify(log)}, 'end ' + stage + '\\n');
const o = outcomes[stage] ?? { exit: 0 };
if ('signal' in o) process.kill(process.pid, o.signal);
else process.exit(o.exit);
`,
  );
  chmodSync(file, 0o755);
  return file;
}

function testAll(npm: string) {
  rmSync(log, { force: true });
  const result = spawnSync(process.execPath, ['scripts/test-all.mjs'], { env: { ...process.env, TEST_ALL_NPM: npm }, encoding: 'utf8', timeout: 60_000 });
  let calls: string[] = [];
  try {
    calls = readFileSync(log, 'utf8').trim().split('\n');
  } catch {
    // No stage ran.
  }
  return { status: result.status, out: result.stdout, calls };
}

const EVERY_STAGE_IN_TURN = ['start run check', 'end check', 'start run test:unit', 'end test:unit', 'start run test:e2e', 'end test:e2e'];

describe('npm test', () => {
  it('runs the later stages after a failed first one, each to its end, reports each, and fails', () => {
    const { status, out, calls } = testAll(standIn({ check: { exit: 2 } }));
    expect(calls).toEqual(EVERY_STAGE_IN_TURN);
    expect(out).toMatch(/check +FAILED \(exit 2,/);
    expect(out).toMatch(/test:unit +ok +\(exit 0,/);
    expect(out).toMatch(/test:e2e +ok +\(exit 0,/);
    expect(out).toContain('[test] failed: check');
    expect(status).toBe(1);
  });

  it('fails when only the last stage fails, and when a stage is killed by a signal', () => {
    const last = testAll(standIn({ 'test:e2e': { exit: 1 } }));
    expect(last.calls).toEqual(EVERY_STAGE_IN_TURN);
    expect(last.out).toContain('[test] failed: test:e2e');
    expect(last.status).toBe(1);

    const killed = testAll(standIn({ 'test:unit': { signal: 'SIGKILL' } }));
    expect(killed.calls).toEqual(EVERY_STAGE_IN_TURN);
    expect(killed.out).toMatch(/test:unit +FAILED \(killed by SIGKILL,/);
    expect(killed.out).toContain('[test] failed: test:unit');
    expect(killed.status).toBe(1);
  });

  it('names every failed stage', () => {
    const { status, out, calls } = testAll(standIn({ check: { exit: 1 }, 'test:unit': { exit: 1 }, 'test:e2e': { signal: 'SIGTERM' } }));
    expect(calls).toEqual(EVERY_STAGE_IN_TURN);
    expect(out).toContain('[test] failed: check, test:unit, test:e2e');
    expect(status).toBe(1);
  });

  it('a missing npm fails every stage, never passes', () => {
    const { status, out, calls } = testAll(join(dir, 'no-such-npm'));
    expect(calls).toEqual([]);
    for (const stage of ['check', 'test:unit', 'test:e2e']) expect(out).toMatch(new RegExp(`${stage} +FAILED \\(spawn .*ENOENT`));
    expect(status).toBe(1);
  });

  it('passes when every stage passes', () => {
    const { status, out, calls } = testAll(standIn({}));
    expect(calls).toEqual(EVERY_STAGE_IN_TURN);
    expect(out).toContain('[test] every stage passed');
    expect(status).toBe(0);
  });
});

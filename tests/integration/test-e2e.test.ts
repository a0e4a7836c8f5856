/**
 * `npm run test:e2e` (scripts/test-e2e.mjs) runs the browser suite on both stores even when the
 * first half fails, reports both, and fails if either did (issue 15, finding 7). Playwright is
 * replaced by a stand-in that reports like it (a JSON report, an exit status) per store.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'polyindex-e2e-runner-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A Playwright stand-in: per backend, how many passed/failed, and whether it gets to a report. */
function standIn(outcomes: Record<string, { passed: number; failed: number; exit: number; report?: boolean }>): string {
  const file = join(dir, `playwright-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(
    file,
    `#!${process.execPath}
import { appendFileSync, writeFileSync } from 'node:fs';
const outcomes = ${JSON.stringify(outcomes)};
const backend = process.env.E2E_BACKEND;
appendFileSync(${JSON.stringify(join(dir, 'calls.log'))}, backend + ' ' + process.argv.slice(2).join(' ') + '\\n');
const o = outcomes[backend];
if (o.report !== false) writeFileSync(process.env.PLAYWRIGHT_JSON_OUTPUT_FILE, JSON.stringify({ stats: { expected: o.passed, unexpected: o.failed, flaky: 0, skipped: 0 } }));
process.exit(o.exit);
`,
  );
  chmodSync(file, 0o755);
  return file;
}

function runner(playwright: string, ...args: string[]) {
  rmSync(join(dir, 'calls.log'), { force: true });
  const result = spawnSync(process.execPath, ['scripts/test-e2e.mjs', ...args], { env: { ...process.env, E2E_PLAYWRIGHT_CLI: playwright }, encoding: 'utf8', timeout: 60_000 });
  const calls = readFileSync(join(dir, 'calls.log'), 'utf8').trim().split('\n');
  return { status: result.status, out: result.stdout, calls };
}

describe('npm run test:e2e', () => {
  it('runs the Firestore half after a failed SQLite half, reports both, and fails', () => {
    const { status, out, calls } = runner(standIn({ sqlite: { passed: 180, failed: 3, exit: 1 }, firestore: { passed: 90, failed: 0, exit: 0 } }), 'tests/e2e/csp.spec.ts');
    expect(calls).toEqual(['sqlite test --reporter=list,json --pass-with-no-tests tests/e2e/csp.spec.ts', 'firestore test --reporter=list,json --pass-with-no-tests tests/e2e/csp.spec.ts']);
    expect(out).toMatch(/sqlite +FAILED 180 passed, 3 failed/);
    expect(out).toMatch(/firestore +ok +90 passed, 0 failed/);
    expect(out).toContain('e2e: 270 passed, 3 failed');
    expect(status).toBe(1);
  });

  it('fails when only the Firestore half fails', () => {
    const { status, out } = runner(standIn({ sqlite: { passed: 180, failed: 0, exit: 0 }, firestore: { passed: 89, failed: 1, exit: 1 } }));
    expect(out).toMatch(/firestore +FAILED 89 passed, 1 failed/);
    expect(status).toBe(1);
  });

  it('counts a half that stopped before any report (its server did not start) as a failure', () => {
    const { status, out } = runner(standIn({ sqlite: { passed: 0, failed: 0, exit: 1, report: false }, firestore: { passed: 90, failed: 0, exit: 0 } }));
    expect(out).toMatch(/sqlite +FAILED no report/);
    expect(out).toContain('e2e: 90 passed, 1 failed');
    expect(status).toBe(1);
  });

  it('passes when both halves pass; a full run asks both halves for every test', () => {
    const { status, out, calls } = runner(standIn({ sqlite: { passed: 180, failed: 0, exit: 0 }, firestore: { passed: 90, failed: 0, exit: 0 } }));
    expect(out).toContain('e2e: 270 passed, 0 failed');
    expect(calls).toEqual(['sqlite test --reporter=list,json', 'firestore test --reporter=list,json']);
    expect(status).toBe(0);
  });
});

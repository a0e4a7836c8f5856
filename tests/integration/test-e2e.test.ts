/**
 * `npm run test:e2e` (scripts/test-e2e.mjs) runs the browser suite once, both sites in one
 * Playwright run, reports each site (its projects' tests: passed, failed, flaky, skipped) and
 * which Firestore it had, and fails if any test failed, if Playwright failed, or if a full run
 * found no tests for a site (issue 15, finding 7; issue 24). Playwright is replaced by a
 * stand-in that reports like it: a JSON report of tests by project, and an exit status.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIRESTORE_SPEC_NAMES, FIRESTORE_SPECS, PROJECTS_OF } from '../e2e/sites.ts';

const dir = mkdtempSync(join(tmpdir(), 'polyindex-e2e-runner-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const reports = join(dir, 'reports');

type Status = 'expected' | 'unexpected' | 'flaky' | 'skipped';

/** A Playwright stand-in: the tests it "ran" (project and status each), its exit, and whether it gets to a report. */
function standIn(tests: readonly [project: string, status: Status][], exit: number, report = true): string {
  const file = join(dir, `playwright-${Math.random().toString(36).slice(2)}.mjs`);
  const json = { suites: [{ title: 'a.spec.ts', specs: [], suites: [{ title: 'group', suites: [], specs: tests.map(([projectName, status], i) => ({ title: `t${i}`, tests: [{ projectName, status }] })) }] }] };
  writeFileSync(
    file,
    `#!${process.execPath}
import { appendFileSync, writeFileSync } from 'node:fs';
appendFileSync(${JSON.stringify(join(dir, 'calls.log'))}, process.env.E2E_SITES + ' ' + process.argv.slice(2).join(' ') + '\\n');
if (${report}) writeFileSync(process.env.PLAYWRIGHT_JSON_OUTPUT_FILE, ${JSON.stringify(JSON.stringify(json))});
process.exit(${exit});
`,
  );
  chmodSync(file, 0o755);
  return file;
}

function runner(playwright: string, ...args: string[]) {
  rmSync(join(dir, 'calls.log'), { force: true });
  const env: NodeJS.ProcessEnv = { ...process.env, E2E_PLAYWRIGHT_CLI: playwright, TEST_REPORT_DIR: reports, FIRESTORE_EMULATOR_SCRIPT: 'none' };
  delete env['FIRESTORE_EMULATOR_HOST'];
  delete env['E2E_SITES'];
  const result = spawnSync(process.execPath, ['scripts/test-e2e.mjs', ...args], { env, encoding: 'utf8', timeout: 60_000 });
  const calls = readFileSync(join(dir, 'calls.log'), 'utf8').trim().split('\n');
  const summary = JSON.parse(readFileSync(join(reports, 'e2e-summary.json'), 'utf8')) as { counts: Record<string, Record<string, number>> | null };
  return { status: result.status, out: result.stdout, calls, summary };
}

const many = (project: string, status: Status, n: number) => Array.from({ length: n }, () => [project, status] as [string, Status]);

describe('npm run test:e2e', () => {
  it('runs both sites in one Playwright run, reports each site, and fails when a test of one failed', () => {
    const { status, out, calls, summary } = runner(standIn([['setup-sqlite', 'expected'], ...many('desktop', 'expected', 150), ...many('mobile', 'expected', 29), ['desktop', 'unexpected'], ['setup-firestore', 'expected'], ...many('firestore', 'expected', 90), ['firestore', 'skipped']], 1));
    expect(calls).toEqual(['sqlite,firestore test --reporter=list,json']);
    expect(out).toMatch(/sqlite +FAILED 180 passed, 1 failed, 0 flaky, 0 skipped \(setup-sqlite, desktop, mobile\)/);
    expect(out).toMatch(/firestore +ok +91 passed, 0 failed, 0 flaky, 1 skipped \(setup-firestore, firestore\)/);
    expect(out).toContain('e2e: 271 passed, 1 failed, 1 skipped');
    expect(out).toContain('Firestore: the in-memory stand-in, started by the Firestore site');
    expect(summary.counts?.['firestore']).toEqual({ passed: 91, failed: 0, flaky: 0, skipped: 1 });
    expect(status).toBe(1);
  });

  it('counts a flaky test as a failure', () => {
    const { status, out } = runner(standIn([...many('desktop', 'expected', 10), ['firestore', 'flaky'], ...many('firestore', 'expected', 5)], 0));
    expect(out).toMatch(/firestore +FAILED 5 passed, 0 failed, 1 flaky/);
    expect(status).toBe(1);
  });

  it('counts a run that stopped before any report (a server did not start) as a failure', () => {
    const { status, out } = runner(standIn([], 1, false));
    expect(out).toContain('no report (Playwright stopped before it wrote one)');
    expect(out).toContain('e2e: 0 passed, 1 failed, 0 skipped');
    expect(status).toBe(1);
  });

  it('fails a full run that found no tests for a site, even when Playwright passed', () => {
    const { status, out } = runner(standIn(many('desktop', 'expected', 10), 0));
    expect(out).toContain('no tests ran on firestore');
    expect(status).toBe(1);
  });

  it('passes when every test passes; chosen specs pass on to Playwright, and SQLite-only specs serve only the SQLite site', () => {
    const both = runner(standIn([...many('desktop', 'expected', 3), ...many('firestore', 'expected', 3)], 0), 'tests/e2e/prices.spec.ts');
    expect(both.calls).toEqual(['sqlite,firestore test --reporter=list,json --pass-with-no-tests tests/e2e/prices.spec.ts']);
    expect(both.out).toContain('e2e: 6 passed, 0 failed, 0 skipped');
    expect(both.status).toBe(0);

    const sqliteOnly = runner(standIn(many('desktop', 'expected', 4), 0), 'tests/e2e/csp.spec.ts:12');
    expect(sqliteOnly.calls).toEqual(['sqlite test --reporter=list,json --pass-with-no-tests tests/e2e/csp.spec.ts:12']);
    expect(sqliteOnly.out).toMatch(/firestore +ok +not served/);
    expect(sqliteOnly.status).toBe(0);
  });

  it('knows the projects of each site and the Firestore specs as the Playwright config does', () => {
    expect(PROJECTS_OF).toEqual({ sqlite: ['setup-sqlite', 'desktop', 'mobile'], firestore: ['setup-firestore', 'firestore'] });
    for (const name of FIRESTORE_SPEC_NAMES) expect(FIRESTORE_SPECS.test(`/x/tests/e2e/${name}.spec.ts`)).toBe(true);
    expect(FIRESTORE_SPECS.test('/x/tests/e2e/csp.spec.ts')).toBe(false);
    expect(FIRESTORE_SPECS.test('/x/tests/e2e/auth.setup.ts')).toBe(false);
  });
});

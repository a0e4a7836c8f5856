// Where the stages of `npm test` leave their machine-readable reports, for its summary
// (scripts/test-all.mjs): Vitest's JSON reports, Playwright's, and the browser runner's own.
// TEST_REPORT_DIR moves them (the runners' own tests use a scratch directory).
import { join } from 'node:path';

const dir = process.env.TEST_REPORT_DIR || join('.cache', 'test-reports');
export const VITEST_REPORT = join(dir, 'vitest.json');
/** `npm test` runs Vitest's `integration` project beside the rest, with a report of its own. */
export const VITEST_INTEGRATION_REPORT = join(dir, 'vitest-integration.json');
export const E2E_REPORT = join(dir, 'playwright.json');
export const E2E_SUMMARY = join(dir, 'e2e-summary.json');

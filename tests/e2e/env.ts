/**
 * The site of the project this worker runs (tests/e2e/sites.ts): a Playwright worker only ever
 * runs tests of one project. Its setup project (tests/e2e/auth.setup.ts) sets E2E_SITE, and
 * Playwright hands the environment a setup project leaves to the workers of the projects that
 * depend on it. The names are the ones specs have always imported; they describe this
 * worker's site.
 */
import { DEMO_PASSWORD, E2E_JOBS_SECRET, PROJECT_ID, SITE_NAMES, siteOf, storageStateFile, type SiteName } from './sites.ts';

function currentSite(): SiteName {
  const named = process.env['E2E_SITE'];
  if (named === 'sqlite' || named === 'firestore') return named;
  // The runner lists tests without running them: any site will do there. A worker must know.
  if (process.env['TEST_WORKER_INDEX'] !== undefined) {
    throw new Error(`E2E_SITE is ${JSON.stringify(named)}: the project's setup (auth.setup.ts) did not run. Run Playwright with its dependencies (no --no-deps), or set E2E_SITE to one of ${SITE_NAMES.join(', ')}.`);
  }
  return 'sqlite';
}

const site = siteOf(currentSite());

/** `sqlite` or `firestore`: the store behind this worker's site. */
export const E2E_BACKEND: SiteName = site.name;
export const E2E_PORT = site.port;
export const baseURL = site.baseURL;
export const E2E_EMULATOR_HOST = site.emulatorHost;
export const E2E_DATA_DIR = site.dataDir;
export { DEMO_PASSWORD, E2E_JOBS_SECRET, PROJECT_ID };

/** The saved login state of a demo account on this worker's site (`test.use({ storageState: storageStateOf(…) })`). */
export const storageStateOf = (email: string): string => storageStateFile(site.name, email);

/**
 * The browser suite: one Playwright run, one build, two sites (docs/architecture.md, "Tests").
 *
 * - The `sqlite` site (the embedded default) serves the `desktop` and `mobile` projects: every
 *   spec; the `firestore` site (DATA_BACKEND=firestore) serves the `firestore` project: the
 *   specs that read or write the store (FIRESTORE_SPECS).
 * - Each site's `setup-…` project signs every demo account in once and saves its login state
 *   (tests/e2e/auth.setup.ts); the site's projects depend on it.
 * - Ports are free ones picked here once (or E2E_PORT, E2E_EMULATOR_HOST, E2E_FIRESTORE_PORT,
 *   E2E_FIRESTORE_EMULATOR_HOST); workers inherit them. E2E_SITES=sqlite serves one site only.
 * - The Firestore site uses FIRESTORE_EMULATOR_HOST when given (`npm test` gives the run's
 *   emulator; its project is emptied first), otherwise its `npm start` starts Google's
 *   emulator, or the in-memory stand-in where the package is missing.
 */
import { defineConfig, devices, type PlaywrightTestConfig } from '@playwright/test';
import { CHROMIUM_FLAGS, testChromium } from './scripts/lib/chromium.mjs';
import { freePort, freePortRun } from './scripts/lib/ports.mjs';
import { E2E_JOBS_SECRET, FIRESTORE_SPECS, PROJECTS_OF, STORELESS, SITE_ENV, SITE_NAMES, siteOf, type SiteName } from './tests/e2e/sites.ts';

// Picked once, in the runner: the config runs again in every worker, which inherits these.
for (const name of SITE_NAMES) {
  process.env[SITE_ENV[name].port] ||= String(await freePort());
  process.env[SITE_ENV[name].emulatorHost] ||= `127.0.0.1:${await freePortRun(3)}`;
}
const served = (process.env['E2E_SITES'] ?? SITE_NAMES.join(','))
  .split(',')
  .map((name) => name.trim())
  .filter((name): name is SiteName => (SITE_NAMES as readonly string[]).includes(name));

// Debian's Chromium (its headless shell where installed), never a downloaded browser.
const chromium = { executablePath: testChromium(), args: CHROMIUM_FLAGS };
const SETUP = /auth\.setup\.ts$/;

type Project = NonNullable<PlaywrightTestConfig['projects']>[number];

function projectsOf(name: SiteName): Project[] {
  const projects = projectsOfSite(name);
  // scripts/test-e2e.mjs reports per site by these names.
  if (projects.map((p) => p.name).join() !== PROJECTS_OF[name].join()) throw new Error(`the projects of ${name} are not PROJECTS_OF in tests/e2e/sites.ts`);
  return projects;
}

function projectsOfSite(name: SiteName): Project[] {
  const site = siteOf(name);
  const setup = `setup-${name}`;
  const on = { baseURL: site.baseURL };
  const metadata = { site: name };
  const setupProject = { name: setup, testMatch: SETUP, use: on, metadata };
  if (name === 'firestore') {
    // The same specs, on Firestore: every screen that reads or writes the store, less the tests
    // that do not check the store (STORELESS, tests/e2e/sites.ts).
    return [setupProject, { name: 'firestore', dependencies: [setup], metadata, use: { ...devices['Desktop Chrome'], launchOptions: chromium, ...on }, testMatch: FIRESTORE_SPECS, grepInvert: new RegExp(STORELESS) }];
  }
  return [
    setupProject,
    { name: 'desktop', dependencies: [setup], metadata, use: { ...devices['Desktop Chrome'], launchOptions: chromium, ...on }, testIgnore: /\.mobile\.spec\.ts$/ },
    { name: 'mobile', dependencies: [setup], metadata, use: { ...devices['Pixel 7'], launchOptions: chromium, ...on }, testMatch: /\.mobile\.spec\.ts$/ },
  ];
}

type WebServer = Extract<NonNullable<PlaywrightTestConfig['webServer']>, unknown[]>[number];

function webServerOf(name: SiteName): WebServer {
  const site = siteOf(name);
  return {
    name,
    // The real start path (build-if-needed, the production server) on a fresh data directory:
    // demo data and demo accounts as on a first start. The sites start one after the other, so
    // the first builds and the second finds the build current.
    command: `node tests/e2e/serve.mjs`,
    url: `${site.baseURL}/`,
    // A build and the emulators' start-up, on a machine that may be busy (CI allows 90 min).
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      HOST: '127.0.0.1',
      PORT: String(site.port),
      DATA_DIR: site.dataDir,
      FIREBASE_AUTH_EMULATOR_HOST: site.emulatorHost,
      DATA_BACKEND: name,
      // Only the Firestore site talks to a Firestore emulator (given, or started by its npm start).
      FIRESTORE_EMULATOR_HOST: name === 'firestore' ? (process.env['FIRESTORE_EMULATOR_HOST'] ?? '') : '',
      // The delivery spec runs the daily-update job through its endpoint, and only then: no in-server scheduler.
      JOBS_SECRET: E2E_JOBS_SECRET,
      JOBS_SCHEDULER: 'off',
    },
  };
}

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: '.cache/test-results',
  fullyParallel: true,
  // Three on two cores: tests also wait (on the server, the emulators, a scheduled post), and a
  // third worker fills that time (docs/decisions.md, "The test suite").
  workers: 3,
  retries: 0,
  forbidOnly: true,
  reporter: [['list']],
  // Per test; flows that span several pages or contexts say test.slow() (×3). Waits poll for
  // the state they need (expect, toPass, hydrated()), never a fixed sleep.
  timeout: 30_000,
  expect: { timeout: 15_000 },
  use: {
    launchOptions: chromium,
    // A failed test keeps its trace: the DOM at each step, the network and the console, and a
    // screenshot of the end. No filmstrip: the screencast behind it cost about half the suite's
    // CPU (docs/decisions.md, "The test suite").
    trace: { mode: 'retain-on-failure', snapshots: true, screenshots: false, sources: true },
    screenshot: 'only-on-failure',
    // The offline app's service worker would answer a page's requests before `page.route` sees
    // them, and precache the app shell in every new context: specs run without it, except
    // tests/e2e/pwa.spec.ts, which is about it.
    serviceWorkers: 'block',
  },
  // Workers take tests in project order. The Firestore site's go first, so that its newsroom
  // test (a minute or more of waiting for a scheduled post) runs while the SQLite site's many
  // tests fill the other workers, instead of being the run's last minute.
  projects: [...served].sort((a, b) => Number(b === 'firestore') - Number(a === 'firestore')).flatMap(projectsOf),
  webServer: served.map(webServerOf),
});

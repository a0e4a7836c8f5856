/**
 * The two sites the browser suite serves in one Playwright run (playwright.config.ts): `sqlite`
 * (the embedded default: every spec, desktop and mobile) and `firestore` (DATA_BACKEND=firestore:
 * the specs that read or write the store). Each has its own port, Auth emulator and data
 * directory; ports are free ones the runner picks once (or E2E_* variables), and every worker
 * inherits them.
 */
import { join } from 'node:path';

export type SiteName = 'sqlite' | 'firestore';
export const SITE_NAMES: readonly SiteName[] = ['sqlite', 'firestore'];

export interface Site {
  readonly name: SiteName;
  readonly port: number;
  readonly baseURL: string;
  /** The site's Auth emulator, `127.0.0.1:port` (it also takes the next two ports). */
  readonly emulatorHost: string;
  readonly dataDir: string;
}

/** The specs that run on the Firestore site too (`<name>.spec.ts`): every screen that reads or writes the store. */
export const FIRESTORE_SPEC_NAMES = ['health', 'auth', 'payments', 'account', 'prices', 'admin', 'admin-prices', 'admin-markets', 'admin-banners', 'news', 'newsroom', 'delivery', 'compare', 'citywise', 'home', 'basis', 'forecasts', 'seats'] as const;
export const FIRESTORE_SPECS = new RegExp(`/(${FIRESTORE_SPEC_NAMES.join('|')})\\.spec\\.ts$`);
/**
 * The tag of a test in those specs that the Firestore site leaves out (playwright.config.ts)
 * rather than repeat: what it checks is not the store, and whatever it reads of the store is read
 * the same way by the site's other tests. An accessibility scan of admin pages (the same
 * components whatever the store; the pages' reads are those of the admin tests), build-time
 * pages, a server the test starts on SQLite itself, the browser's side of a fetch the test answers.
 */
export const STORELESS = '@storeless';

/** The Playwright projects of each site: its setup first (playwright.config.ts). */
export const PROJECTS_OF: Readonly<Record<SiteName, readonly string[]>> = { sqlite: ['setup-sqlite', 'desktop', 'mobile'], firestore: ['setup-firestore', 'firestore'] };

/** Where each site's settings live in the environment (the runner fills the ports in). */
export const SITE_ENV = {
  sqlite: { port: 'E2E_PORT', emulatorHost: 'E2E_EMULATOR_HOST', dataDir: 'E2E_DATA_DIR', defaultDataDir: '.cache/e2e-data' },
  firestore: { port: 'E2E_FIRESTORE_PORT', emulatorHost: 'E2E_FIRESTORE_EMULATOR_HOST', dataDir: 'E2E_FIRESTORE_DATA_DIR', defaultDataDir: '.cache/e2e-firestore-data' },
} as const;

export function siteOf(name: SiteName): Site {
  const names = SITE_ENV[name];
  const port = Number(process.env[names.port]);
  const emulatorHost = process.env[names.emulatorHost];
  if (!port || !emulatorHost) throw new Error(`${names.port} and ${names.emulatorHost} are not set: playwright.config.ts sets them (free ports) before any test loads`);
  return { name, port, baseURL: `http://127.0.0.1:${port}`, emulatorHost, dataDir: process.env[names.dataDir] ?? names.defaultDataDir };
}

export const PROJECT_ID = 'demo-polyindex';
export const DEMO_PASSWORD = 'polyindex-demo';
/** The e2e servers' JOBS_SECRET (POST /api/jobs/daily-update). */
export const E2E_JOBS_SECRET = 'e2e-jobs-secret';

/** The saved login state of one demo account on one site, written by tests/e2e/auth.setup.ts. */
export const storageStateFile = (site: SiteName, email: string): string => join('.cache', 'e2e-auth', site, `${email}.json`);

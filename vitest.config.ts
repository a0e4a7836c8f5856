/**
 * The Vitest projects (docs/architecture.md, "Tests"). One `vitest run` runs them all; pick one
 * with `--project <name>` (`npx vitest run --project contract`).
 *
 * - `unit`: tests/unit, in parallel, plain Vite (no Astro, no emulator, no data directory). Not
 *   isolated: a worker's files share one module graph, which halved the project's CPU time
 *   (47 s → 22 s); tests/setup/sharedWorker.ts puts back what a file changed.
 * - `unit-astro`: the unit files that import Astro's virtual modules (`astro:env`, `astro:content`),
 *   in parallel with Astro's Vite config, no emulator. A unit file that reaches `astro:` from
 *   `unit` fails with a message that says to list it in ASTRO_UNIT_FILES.
 * - `contract`: tests/contract (the Store contract on SQLite and Firestore), in parallel, with
 *   the run's Firestore (Google's emulator where installed, else the stand-in). Not isolated
 *   either (93 s → 64 s of CPU): each file opens its own stores.
 * - `integration`: tests/integration, one file at a time (they share the Astro runtime's store
 *   and outbox under TEST_DATA_DIR), with Astro's config, the Auth emulator and the Firestore;
 *   first, before the other projects.
 * - `process`: integration files that spawn processes (servers, scripts, npm itself), beside
 *   the parallel projects, every listener on a free port, every file in a directory of its own.
 */
import { getViteConfig } from 'astro/config';
import { defineConfig, type Plugin } from 'vitest/config';
import { freePortRun } from './scripts/lib/ports.mjs';

/** Unit files whose imports reach `astro:*` (they run in `unit-astro`). */
const ASTRO_UNIT_FILES = ['tests/unit/delivery.test.ts', 'tests/unit/apiEndpoints.test.ts', 'tests/unit/apiRoutes.test.ts'];
/** Integration files that start processes of their own (they run in `process`). */
const PROCESS_FILES = [
  'tests/integration/start.test.ts',
  'tests/integration/firestore-emulator.test.ts',
  'tests/integration/daily-update-processes.test.ts',
  'tests/integration/feed-processes.test.ts',
  'tests/integration/invoice-processes.test.ts',
  'tests/integration/serverDrain.test.ts',
  'tests/integration/backup.test.ts',
  'tests/integration/store-copy.test.ts',
  'tests/integration/data-check.test.ts',
  'tests/integration/test-all.test.ts',
  'tests/integration/test-e2e.test.ts',
];

// The Auth emulator of this run: TEST_EMULATOR_HOST, or three free consecutive ports (its hub
// and logging take the two after it). Chosen before Astro's config loads: astro:env inlines it.
process.env['TEST_EMULATOR_HOST'] ||= `127.0.0.1:${await freePortRun(3)}`;
// A given Firestore emulator is the run's (tests/setup/firestore.ts), under a name of our own:
// FIRESTORE_EMULATOR_HOST itself would make Google's client ignore the host a test passes.
const givenFirestore = process.env['TEST_FIRESTORE_EMULATOR_HOST'] || process.env['FIRESTORE_EMULATOR_HOST'];
delete process.env['FIRESTORE_EMULATOR_HOST'];
if (givenFirestore) process.env['TEST_FIRESTORE_EMULATOR_HOST'] = givenFirestore;

const { TEST_DATA_DIR, TEST_EMULATOR_HOST } = await import('./tests/integration/env.ts');
// astro:env resolves its values when the config loads, so the test environment is set first.
const testEnv = {
  METADATA_SERVER_DETECTION: 'none',
  ASTRO_TELEMETRY_DISABLED: '1',
  FIREBASE_AUTH_EMULATOR_HOST: TEST_EMULATOR_HOST,
  TEST_EMULATOR_HOST,
  DATA_DIR: TEST_DATA_DIR,
};
Object.assign(process.env, testEnv);

const common = { environment: 'node', env: testEnv, testTimeout: 30_000, hookTimeout: 60_000 } as const;
const DATA_DIR_SETUP = 'tests/setup/dataDir.ts';
const FIRESTORE_SETUP = 'tests/setup/firestore.ts';
const AUTH_SETUP = 'tests/setup/authEmulator.ts';
/** Astro's `astro:content` reads the synced content store (after `astro sync`). */
const CONTENT_SETUP = 'tests/setup/contentStore.ts';
/** Puts back what a file changed in a worker that files share (`isolate: false`). */
const SHARED_WORKER_SETUP = 'tests/setup/sharedWorker.ts';

/** In `unit`, an import of Astro's virtual modules fails with what to do about it. */
const noAstroInUnit: Plugin = {
  name: 'polyindex:no-astro-in-unit',
  enforce: 'pre',
  resolveId(id, importer) {
    if (!id.startsWith('astro:')) return null;
    this.error(`${importer ?? 'a unit test'} imports ${id}: list the unit test file in ASTRO_UNIT_FILES (vitest.config.ts) so it runs in the unit-astro project`);
  },
};

// Each Astro project gets its own copy of Astro's Vite config (plugins keep per-server state).
const astroVite = () => getViteConfig({})({ mode: 'test', command: 'serve' });

export default defineConfig({
  test: {
    // `integration` runs first, in one worker; then every other project together on two
    // workers: a `process` file mostly waits for the children it starts, and the parallel
    // projects' files fill the core meanwhile. By their `sequence.groupOrder`; projects of one
    // group must have the same `maxWorkers`. (`npm test` runs `integration` as a run of its own
    // beside the rest: scripts/test-all.mjs.)
    maxWorkers: 2,
    projects: [
      {
        plugins: [noAstroInUnit],
        test: { ...common, name: 'unit', include: ['tests/unit/**/*.test.ts'], exclude: ASTRO_UNIT_FILES, maxWorkers: 2, isolate: false, setupFiles: [SHARED_WORKER_SETUP], sequence: { groupOrder: 1 } },
      },
      {
        ...(await astroVite()),
        test: { ...common, name: 'unit-astro', include: ASTRO_UNIT_FILES, maxWorkers: 2, sequence: { groupOrder: 1 }, globalSetup: [CONTENT_SETUP] },
      },
      {
        test: {
          ...common,
          name: 'contract',
          include: ['tests/contract/**/*.test.ts'],
          maxWorkers: 2,
          isolate: false,
          setupFiles: [SHARED_WORKER_SETUP],
          sequence: { groupOrder: 1 },
          // A bound for a hang, not a wait: a Firestore emulator beside two busy workers on a
          // loaded machine took more than 30 s for a handful of writes.
          testTimeout: 120_000,
          globalSetup: [DATA_DIR_SETUP, FIRESTORE_SETUP],
        },
      },
      {
        ...(await astroVite()),
        test: {
          ...common,
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          exclude: PROCESS_FILES,
          // They share the Astro runtime's store, outbox and Auth emulator under TEST_DATA_DIR:
          // one worker, one file after another, before the other projects. Not isolated: the
          // files share one module graph (as a server process does), which saves loading
          // firebase-admin, libSQL and the pages again for every file.
          fileParallelism: false,
          maxWorkers: 1,
          isolate: false,
          setupFiles: [SHARED_WORKER_SETUP],
          sequence: { groupOrder: 0 },
          globalSetup: [DATA_DIR_SETUP, CONTENT_SETUP, AUTH_SETUP, FIRESTORE_SETUP],
        },
      },
      {
        test: {
          ...common,
          name: 'process',
          include: PROCESS_FILES,
          // Beside the parallel projects, after `integration`: each file's processes listen on
          // free ports of their own and write under a directory of their own (a fresh Firestore
          // project, a mkdtemp or a name no other file uses), and most of their time is waiting
          // for a child to start or stop, so other files fill the cores meanwhile.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
          globalSetup: [DATA_DIR_SETUP, FIRESTORE_SETUP],
        },
      },
    ],
  },
});

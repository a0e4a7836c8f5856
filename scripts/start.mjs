#!/usr/bin/env node
// `npm start`: build when the sources changed, then serve the production build. With no
// configuration that is the embedded default: SQLite under DATA_DIR with demo data, the
// Firebase Auth emulator on loopback with the demo accounts, sandbox payments, mail outbox.
//
// Process life (docs/deploy.md, "Running npm start under a supervisor"): the launcher lives
// exactly as long as the server. A server that ends by any cause ends the launcher with a
// non-zero status, after it has stopped the emulators (or stand-in). An Auth emulator that dies
// is restarted with backoff while the server keeps serving (scripts/lib/auth-emulator.mjs). SIGTERM, SIGINT or SIGHUP
// to the launcher is passed to the server as SIGTERM (it finishes its requests), then the rest
// stops, and the launcher exits with the server's status: 0 after a clean stop, within 10 s.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unsafeModeReasons } from '../src/lib/modes.ts';
import { readConfig } from '../src/server/config/settings.ts';
import { buildIsCurrent, writeBuildStamp } from './lib/build-stamp.mjs';
import { portIsOpen, startAuthEmulator, superviseAuthEmulator, waitForPort } from './lib/auth-emulator.mjs';
import { assertSafePaymentMode } from './lib/payment-mode.mjs';
import { describeExit, exitStatusOf, stoppedCleanly } from './lib/process-life.mjs';

// The project's own tools (astro, firebase), also when started without npm (systemd, a shell).
const projectBin = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '.bin');
process.env.PATH = `${projectBin}${delimiter}${process.env.PATH ?? ''}`;

/** The whole stop, as a supervisor allows it (systemd's TimeoutStopSec in docs/deploy.md is 15 s). */
const STOP_BUDGET_MS = 10_000;
/** Of which the server may use this much (its own drain is bounded at 10 s, usually far less) before it is killed. */
const SERVER_STOP_MS = 9_000;
/** How often the Auth emulator's accounts are exported while it runs (a crash loses at most this much). */
const AUTH_EXPORT_EVERY_MS = 5 * 60_000;

// The settings, read as the server reads them (src/server/config/settings.ts: one list, one set of defaults).
let settings;
try {
  settings = readConfig((name) => process.env[name]);
} catch (error) {
  console.error(`[polyindex] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
const env = {
  ...process.env,
  HOST: settings.host,
  PORT: String(settings.port),
  DATA_DIR: settings.dataDir,
  ASTRO_TELEMETRY_DISABLED: '1',
  METADATA_SERVER_DETECTION: process.env.METADATA_SERVER_DETECTION ?? 'none',
};
const { authEmulator, sandboxPayments, whatsappSandbox } = settings.modes;
// As the operator set it (real mode refuses it), before the emulator's default is filled in.
const authEmulatorHost = settings.firebase.authEmulatorHostSetting;
if (authEmulator) env.FIREBASE_AUTH_EMULATOR_HOST = settings.firebase.authEmulatorHost;
env.FIREBASE_PROJECT_ID = settings.firebase.projectId;
const firestore = settings.store.DATA_BACKEND === 'firestore';
// DATA_BACKEND=firestore with neither a project nor an emulator: a local Firestore started here,
// Google's emulator where it is installed, else the in-memory stand-in (scripts/lib/firestore-emulator.mjs).
const firestoreLocal = firestore && !settings.store.FIRESTORE_EMULATOR_HOST && !settings.firebase.serviceAccountJson;

const refusals = unsafeModeReasons({ host: env.HOST, authEmulator, authEmulatorHost, sandboxPayments, firestoreEmulator: firestore && (firestoreLocal || Boolean(settings.store.FIRESTORE_EMULATOR_HOST)), whatsappSandbox, deliveryLinkSecret: Boolean(settings.deliveryLinkSecret?.trim()) });
if (refusals.length > 0) {
  console.error(`[polyindex] refusing to serve ${env.HOST}:\n  - ${refusals.join('\n  - ')}`);
  process.exit(1);
}

try {
  console.log(`[polyindex] payments: ${assertSafePaymentMode(env)}`);
} catch (error) {
  console.error(`[polyindex] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

mkdirSync(env.DATA_DIR, { recursive: true });

// Something else answering on our port would pass for the site (and a server that cannot
// listen may stay alive without serving): refuse before starting anything.
const probeHost = env.HOST === '0.0.0.0' ? '127.0.0.1' : env.HOST;
async function portTaken() {
  if (!(await portIsOpen(probeHost, Number(env.PORT)))) return false;
  console.error(`[polyindex] port ${env.PORT} on ${env.HOST} is already in use by another process: stop it or set PORT`);
  return true;
}
if (await portTaken()) process.exit(1);

/** Stops what has been started (last first): each gets the time left of the stop budget. */
const cleanups = [];
/** @type {import('node:child_process').ChildProcess | null} */
let server = null;
/** @type {import('./lib/process-life.mjs').ChildExit | null} */
let serverExit = null;
/** @type {Promise<import('./lib/process-life.mjs').ChildExit> | null} */
let serverExited = null;
/** The build in progress, stopped by a stop request. */
let building = null;
/** The signal that asked us to stop, once one has. */
let stopRequested = null;
/** @type {Promise<never> | null} */
let finishing = null;
const sleep = (ms) => new Promise((done) => setTimeout(done, ms).unref());

/**
 * Stops everything and exits. `status` undefined: a requested stop, whose status is the
 * server's (0 when it stopped cleanly). A given status (a failure) is kept.
 */
function finish(status) {
  finishing ??= (async () => {
    const deadline = Date.now() + STOP_BUDGET_MS;
    let code = status;
    if (server && !serverExit) {
      server.kill('SIGTERM');
      const ended = await Promise.race([serverExited, sleep(SERVER_STOP_MS).then(() => null)]);
      if (!ended) {
        console.error(`[polyindex] the server did not stop within ${SERVER_STOP_MS / 1000} s: killed`);
        server.kill('SIGKILL');
      }
      await serverExited;
    }
    if (code === undefined) {
      code = serverExit ? (stoppedCleanly(serverExit) ? 0 : exitStatusOf(serverExit)) : 0;
      if (serverExit) console.log(`[polyindex] the server stopped (${describeExit(serverExit)})`);
    }
    for (const cleanup of cleanups.reverse()) {
      await cleanup(Math.max(500, deadline - Date.now())).catch((error) => console.error('[polyindex] stopping:', error));
    }
    process.exit(code);
  })();
  return finishing;
}

function onSignal(signal) {
  if (stopRequested) {
    // A second signal: no more waiting.
    console.error(`[polyindex] ${signal} again: stopping now`);
    server?.kill('SIGKILL');
    process.exit(exitStatusOf({ code: null, signal }));
  }
  stopRequested = signal;
  building?.kill('SIGTERM');
  console.log(`[polyindex] ${signal}: stopping${server ? ' (the server finishes its requests first)' : ''}…`);
  // Before the server runs (building, starting the emulator) the start-up steps notice the request.
  if (server) void finish(undefined);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, onSignal);
// Should the launcher itself crash, it takes the server along rather than leave it orphaned.
process.on('exit', () => {
  if (server && !serverExit) server.kill('SIGKILL');
});

/** Runs a child to its end (the build), asynchronously so that a stop request is heard. */
function run(command, args, extraEnv = {}) {
  return new Promise((done) => {
    const child = spawn(command, args, { stdio: 'inherit', env: { ...env, ...extraEnv } });
    child.once('error', (error) => {
      console.error(`[polyindex] could not run ${command}: ${error.message}`);
      done({ code: 127, signal: null });
    });
    child.once('exit', (code, signal) => {
      building = null;
      done({ code, signal });
    });
    building = child;
  });
}

try {
  if (!buildIsCurrent()) {
    console.log('[polyindex] building the site…');
    // Always a production build, whatever NODE_ENV the caller has (a test runner sets `test`,
    // and Vite then builds with import.meta.env.PROD false: no service worker, dev-only code).
    const build = await run('astro', ['build'], { NODE_ENV: 'production' });
    if (stopRequested) await finish(0);
    if (build.code !== 0) {
      console.error(`[polyindex] the build failed (${describeExit(build)})`);
      await finish(exitStatusOf(build) || 1);
    }
    writeBuildStamp();
  }

  if (firestoreLocal) {
    const { startLocalFirestore } = await import('./lib/firestore-emulator.mjs');
    // FIRESTORE_STAND_IN_PORT: its older name, from when only the stand-in ran here.
    const local = await startLocalFirestore({ env, port: Number(env.FIRESTORE_LOCAL_PORT || env.FIRESTORE_STAND_IN_PORT || 0) });
    cleanups.push(() => local.stop());
    env.FIRESTORE_EMULATOR_HOST = local.host;
    console.log(`[polyindex] store: ${local.label} (in memory: everything is lost when this process stops)`);
    void local.exited.then((exit) => {
      if (finishing) return;
      console.error(`[polyindex] the Firestore emulator stopped unexpectedly (${describeExit(exit)}): stopping the server`);
      void finish(1);
    });
    if (stopRequested) await finish(0);
  }
  const { openConfiguredStore, storeConfigFrom, describeStore } = await import('../src/server/store/open.ts');
  // The local Firestore's address, when one was started above, is the only store setting the launcher adds.
  const storeConfig = storeConfigFrom({ ...settings.store, FIRESTORE_EMULATOR_HOST: env.FIRESTORE_EMULATOR_HOST });
  if (!firestoreLocal) console.log(`[polyindex] store: ${describeStore(storeConfig)}`);
  if (authEmulator) {
    // A SIGTERM while the emulator starts (it may take minutes on a loaded machine) ends the start.
    const startAborted = new AbortController();
    const emulatorOptions = { emulatorHost: env.FIREBASE_AUTH_EMULATOR_HOST, projectId: env.FIREBASE_PROJECT_ID, dataDir: env.DATA_DIR };
    const stopWatch = setInterval(() => stopRequested && startAborted.abort(), 250);
    let first;
    try {
      first = await startAuthEmulator({ ...emulatorOptions, signal: startAborted.signal });
    } catch (error) {
      if (stopRequested) await finish(0);
      throw error;
    } finally {
      clearInterval(stopWatch);
    }
    process.env.FIREBASE_AUTH_EMULATOR_HOST = env.FIREBASE_AUTH_EMULATOR_HOST;
    const { firebaseAuth } = await import('../src/server/auth/firebaseAdmin.ts');
    const { ensureDemoAccounts, ensureDemoSignIns, demoAccounts, DEMO_PASSWORD } = await import('../src/server/demoAccounts.ts');
    const { exportAuthEmulator, hubOf } = await import('../src/server/ops/authEmulatorExport.ts');
    const auth = firebaseAuth({ projectId: env.FIREBASE_PROJECT_ID, emulatorHost: env.FIREBASE_AUTH_EMULATOR_HOST });
    /**
     * The accounts written to DATA_DIR/auth-emulator now: what a restart after a crash (no
     * export on exit) imports. Skipped for an emulator started elsewhere (it keeps its own).
     */
    const exportAccounts = async () => {
      const hub = hubOf(env.DATA_DIR, env.FIREBASE_AUTH_EMULATOR_HOST);
      if (hub) await exportAuthEmulator({ dataDir: env.DATA_DIR, hub });
    };
    /** @type {NodeJS.Timeout | undefined} */
    let exporting;
    // The emulator is watched from here on: one that dies is restarted, the server keeps serving.
    const emulator = superviseAuthEmulator({
      first,
      start: (signal) => startAuthEmulator({ ...emulatorOptions, signal }),
      afterRestart: async () => {
        await ensureDemoSignIns(auth);
        await exportAccounts();
      },
      isStopping: () => Boolean(stopRequested || finishing),
    });
    cleanups.push((timeoutMs) => {
      clearInterval(exporting);
      return emulator.stop(timeoutMs);
    });
    if (stopRequested) await finish(0);
    const store = await openConfiguredStore(storeConfig);
    await ensureDemoAccounts(auth, store);
    await store.close();
    await exportAccounts();
    // Accounts made since the last export are what a crash loses: at most this much of them.
    let exportFailing = false;
    exporting = setInterval(() => {
      exportAccounts().then(
        () => (exportFailing = false),
        (error) => {
          if (!exportFailing) console.error(`[polyindex] the Auth emulator's accounts could not be exported: ${error instanceof Error ? error.message : String(error)}`);
          exportFailing = true;
        },
      );
    }, AUTH_EXPORT_EVERY_MS);
    exporting.unref();
    console.log(`[polyindex] demo accounts (password ${DEMO_PASSWORD}):`);
    for (const a of demoAccounts) console.log(`    ${a.email.padEnd(26)} ${a.description}`);
  }
  if (stopRequested) await finish(0);
  if (await portTaken()) await finish(1);

  const child = spawn(process.execPath, ['dist/server/serve.mjs'], { stdio: 'inherit', env });
  server = child;
  serverExited = new Promise((done) => {
    child.once('exit', (code, signal) => {
      serverExit = { code, signal };
      done(serverExit);
    });
  });
  console.log(`[polyindex] server pid ${child.pid}`);
  void serverExited.then((exit) => {
    if (stopRequested || finishing) return;
    // Died on its own (crash, OOM killer, a stray kill, a port in use): never a quiet success.
    console.error(`[polyindex] the server stopped unexpectedly (${describeExit(exit)}): stopping the rest`);
    void finish(exitStatusOf(exit) || 1);
  });
  const shownHost = probeHost;
  if (await waitForPort(shownHost, Number(env.PORT), 60_000, () => !serverExit)) {
    console.log(`\n  PolyIndex is running at http://${shownHost}:${env.PORT}/  (data in ${env.DATA_DIR})\n`);
  } else if (!serverExit && !stopRequested) {
    console.error(`[polyindex] the server did not open port ${env.PORT} within 60 s`);
    await finish(1);
  }
} catch (error) {
  console.error('[polyindex] start failed:', error);
  await finish(1);
}

#!/usr/bin/env node
// `npm start`: build when the sources changed, then serve the production build. With no
// configuration that is the embedded default: SQLite under DATA_DIR with demo data, the
// Firebase Auth emulator on loopback with the demo accounts, sandbox payments, mail outbox.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { isAuthEmulatorMode, unsafeModeReasons } from '../src/lib/modes.ts';
import { buildIsCurrent, writeBuildStamp } from './lib/build-stamp.mjs';
import { startAuthEmulator, waitForPort } from './lib/auth-emulator.mjs';
import { assertSafePaymentMode } from './lib/payment-mode.mjs';

const env = {
  ...process.env,
  HOST: process.env.HOST ?? '127.0.0.1',
  PORT: process.env.PORT ?? '4321',
  DATA_DIR: resolve(process.env.DATA_DIR ?? './data'),
  ASTRO_TELEMETRY_DISABLED: '1',
  METADATA_SERVER_DETECTION: process.env.METADATA_SERVER_DETECTION ?? 'none',
};
const authEmulator = isAuthEmulatorMode(env.FIREBASE_SERVICE_ACCOUNT);
// As the operator set it (real mode refuses it), before the emulator's default is filled in.
const authEmulatorHost = env.FIREBASE_AUTH_EMULATOR_HOST;
const sandboxPayments = !(env.RAZORPAY_KEY_ID && env.RAZORPAY_KEY_SECRET);
if (authEmulator) env.FIREBASE_AUTH_EMULATOR_HOST ??= '127.0.0.1:9099';
env.FIREBASE_PROJECT_ID ??= 'demo-polyindex';
const firestore = env.DATA_BACKEND === 'firestore';
// DATA_BACKEND=firestore with neither a project nor an emulator: the in-memory stand-in.
const firestoreStandIn = firestore && !env.FIRESTORE_EMULATOR_HOST && !env.FIREBASE_SERVICE_ACCOUNT;

const whatsappSandbox = !(env.WHATSAPP_TOKEN && env.WHATSAPP_PHONE_NUMBER_ID);
const refusals = unsafeModeReasons({ host: env.HOST, authEmulator, authEmulatorHost, sandboxPayments, firestoreEmulator: firestore && (firestoreStandIn || Boolean(env.FIRESTORE_EMULATOR_HOST)), whatsappSandbox });
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

if (!buildIsCurrent()) {
  console.log('[polyindex] building the site…');
  const build = spawnSync('astro', ['build'], { stdio: 'inherit', env });
  if (build.status !== 0) process.exit(build.status ?? 1);
  writeBuildStamp();
}

const cleanups = [];
let stopping = false;
async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  process.exit(code);
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

try {
  if (firestoreStandIn) {
    const { startFirestoreFake } = await import('./lib/firestore-fake.mjs');
    const fake = await startFirestoreFake({ port: Number(env.FIRESTORE_STAND_IN_PORT ?? 0) });
    cleanups.push(fake.stop);
    env.FIRESTORE_EMULATOR_HOST = fake.host;
    console.log(`[polyindex] store: Firestore stand-in on ${fake.host} (in memory: everything is lost when this process stops)`);
  }
  const { openConfiguredStore, storeConfigFrom, describeStore } = await import('../src/server/store/open.ts');
  const storeConfig = storeConfigFrom(env);
  if (!firestoreStandIn) console.log(`[polyindex] store: ${describeStore(storeConfig)}`);
  if (authEmulator) {
    const emulator = await startAuthEmulator({ emulatorHost: env.FIREBASE_AUTH_EMULATOR_HOST, projectId: env.FIREBASE_PROJECT_ID, dataDir: env.DATA_DIR });
    cleanups.push(emulator.stop);
    process.env.FIREBASE_AUTH_EMULATOR_HOST = env.FIREBASE_AUTH_EMULATOR_HOST;
    const { firebaseAuth } = await import('../src/server/auth/firebaseAdmin.ts');
    const { ensureDemoAccounts, demoAccounts, DEMO_PASSWORD } = await import('../src/server/demoAccounts.ts');
    const store = await openConfiguredStore(storeConfig);
    await ensureDemoAccounts(firebaseAuth({ projectId: env.FIREBASE_PROJECT_ID, emulatorHost: env.FIREBASE_AUTH_EMULATOR_HOST }), store);
    await store.close();
    console.log(`[polyindex] demo accounts (password ${DEMO_PASSWORD}):`);
    for (const a of demoAccounts) console.log(`    ${a.email.padEnd(26)} ${a.description}`);
  }

  const server = spawn(process.execPath, ['dist/server/serve.mjs'], { stdio: 'inherit', env });
  cleanups.push(
    () =>
      new Promise((done) => {
        if (server.exitCode !== null) return done();
        server.once('exit', done);
        server.kill('SIGTERM');
      }),
  );
  server.on('exit', (code) => {
    if (!stopping) shutdown(code ?? 1);
  });
  if (await waitForPort(env.HOST === '0.0.0.0' ? '127.0.0.1' : env.HOST, Number(env.PORT), 60_000, () => server.exitCode === null)) {
    const shownHost = env.HOST === '0.0.0.0' ? '127.0.0.1' : env.HOST;
    console.log(`\n  PolyIndex is running at http://${shownHost}:${env.PORT}/  (data in ${env.DATA_DIR})\n`);
  }
} catch (error) {
  console.error('[polyindex] start failed:', error);
  await shutdown(1);
}

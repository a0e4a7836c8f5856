#!/usr/bin/env node
// One site of the browser suite, as playwright.config.ts starts it: a fresh data directory and,
// for the Firestore site given an emulator (FIRESTORE_EMULATOR_HOST), its project emptied
// first; then `npm start`'s launcher (scripts/start.mjs) in this process, as in production.
import { rmSync } from 'node:fs';
import { emptyFirestoreProject, isFirestoreEmulator } from '../../scripts/lib/firestore-emulator.mjs';

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('DATA_DIR is not set (playwright.config.ts sets it)');
rmSync(dataDir, { recursive: true, force: true });

const host = process.env.FIRESTORE_EMULATOR_HOST?.trim();
if (process.env.DATA_BACKEND === 'firestore' && host) {
  const projectId = process.env.FIREBASE_PROJECT_ID ?? 'demo-polyindex';
  if (!(await isFirestoreEmulator(host, 10_000))) {
    console.error(`[e2e] FIRESTORE_EMULATOR_HOST=${host} is not Google's Firestore emulator: cannot empty ${projectId} before the run`);
    process.exit(1);
  }
  await emptyFirestoreProject(host, projectId);
  console.log(`[e2e] emptied Firestore project ${projectId} on ${host}`);
}

await import('../../scripts/start.mjs');

/**
 * The run's Firestore, for the projects that open Firestore stores (contract, integration,
 * process): the emulator named by TEST_FIRESTORE_EMULATOR_HOST (vitest.config.ts moves a given
 * FIRESTORE_EMULATOR_HOST there: `npm test` starts one emulator for all its stages), otherwise
 * Google's emulator started here on a free loopback port, otherwise the in-memory stand-in.
 * Tests read it with `suiteFirestore()` (tests/support/firestore.ts) and pass its host to every
 * Firestore they open.
 */
import type { TestProject } from 'vitest/node';
import { isFirestoreEmulator, startLocalFirestore } from '../../scripts/lib/firestore-emulator.mjs';
import type { SuiteFirestore } from '../support/firestore.ts';
import { shared } from './shared.ts';

async function start(): Promise<SuiteFirestore & { stop: () => Promise<void> }> {
  const given = process.env['TEST_FIRESTORE_EMULATOR_HOST']?.trim();
  if (given) {
    const emulator = await isFirestoreEmulator(given, 10_000);
    const label = emulator ? `Google's Firestore emulator at ${given} (given)` : `the Firestore at ${given} (given; not Google's emulator, so tests that need isolated transactions are skipped)`;
    return { host: given, kind: emulator ? 'emulator' : 'stand-in', label, stop: async () => undefined };
  }
  const local = await startLocalFirestore();
  const label = local.kind === 'emulator' ? local.label : `${local.label}: tests that need transactions isolated between processes are skipped`;
  return { host: local.host, kind: local.kind, label, stop: () => local.stop() };
}

export default async function setup(project: TestProject) {
  const { value, release } = await shared('firestore', async () => {
    const firestore = await start();
    console.log(`[firestore] ${firestore.label}`);
    return firestore;
  }, (firestore) => firestore.stop());
  project.provide('firestore', { host: value.host, kind: value.kind, label: value.label });
  return release;
}

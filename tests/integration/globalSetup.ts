/** Starts one real Firebase Auth emulator for the integration suites, on its own ports. */
import { mkdirSync, rmSync } from 'node:fs';
import { startAuthEmulator } from '../../scripts/lib/auth-emulator.mjs';
import { TEST_DATA_DIR, TEST_EMULATOR_HOST } from './env.ts';

export default async function setup() {
  rmSync(TEST_DATA_DIR, { recursive: true, force: true });
  mkdirSync(TEST_DATA_DIR, { recursive: true });
  const emulator = await startAuthEmulator({ emulatorHost: TEST_EMULATOR_HOST, projectId: 'demo-polyindex', dataDir: `${TEST_DATA_DIR}/emulator` });
  return async () => emulator.stop();
}

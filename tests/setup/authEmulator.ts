/** One real Firebase Auth emulator for the projects that sign people in (integration, process). */
import { startAuthEmulator } from '../../scripts/lib/auth-emulator.mjs';
import { TEST_DATA_DIR, TEST_EMULATOR_HOST } from '../integration/env.ts';
import { shared } from './shared.ts';

export default async function setup() {
  const { release } = await shared(
    'auth-emulator',
    () => startAuthEmulator({ emulatorHost: TEST_EMULATOR_HOST, projectId: 'demo-polyindex', dataDir: `${TEST_DATA_DIR}/emulator` }),
    (emulator) => emulator.stop(),
  );
  return release;
}
